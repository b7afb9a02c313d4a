"""`tdd-sandbox images build|list|bootstrap`."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from tdd_sandbox.cli.options import config_option, default_config, progress
from tdd_sandbox.images.bootstrap import bootstrap_base
from tdd_sandbox.images.inventory import build_images, list_images
from tdd_sandbox.sandbox.docker import connect
from tdd_sandbox.settings import load_settings


@click.group()
def images() -> None:
    """Build and list the sandbox images."""


@images.command("build")
@click.argument("languages", nargs=-1)
@click.option("--force", is_flag=True, help="Rebuild even when the current image exists.")
@config_option
def build(languages: tuple[str, ...], force: bool, config: Path | None) -> int:
    """Build the images of LANGUAGES (default: all)."""
    settings = load_settings(default_config(config, Path.cwd()))
    for tag in build_images(connect(), settings.images, languages, force=force, progress=progress):
        click.echo(tag)
    return 0


@images.command("list")
@config_option
def list_(config: Path | None) -> int:
    """Show each language's current image tag and whether it is built."""
    settings = load_settings(default_config(config, Path.cwd()))
    table = Table(title="sandbox images")
    for column in ("language", "tag", "present", "size"):
        table.add_column(column)
    for row in list_images(connect(), settings.images):
        size = f"{row.size_bytes / 1024**2:.0f} MiB" if row.size_bytes else ""
        table.add_row(row.language, row.tag, "yes" if row.present else "no", size)
    Console().print(table)
    return 0


@images.command("bootstrap")
@config_option
def bootstrap(config: Path | None) -> int:
    """Build a Debian base image with debootstrap when no registry is reachable."""
    settings = load_settings(default_config(config, Path.cwd()))
    click.echo(bootstrap_base(connect(), settings.images, progress))
    return 0
