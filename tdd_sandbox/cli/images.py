"""`tdd-sandbox images build|list|bootstrap`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from tdd_sandbox.cli.options import LazyChoice, config_option, default_config, progress
from tdd_sandbox.cli.terminal import console, echo, echo_json


def _releases() -> Sequence[str]:
    from tdd_sandbox.images.catalog import RELEASES

    return RELEASES


@click.group()
def images() -> None:
    """Build and list the sandbox images."""


@images.command("build")
@click.argument("languages", nargs=-1)
@click.option("--force", is_flag=True, help="Rebuild even when the current image exists.")
@config_option
def build(languages: tuple[str, ...], force: bool, config: Path | None) -> int:
    """Build the images of LANGUAGES (default: all)."""
    from tdd_sandbox.images.inventory import build_images
    from tdd_sandbox.languages.registry import get_language
    from tdd_sandbox.sandbox.client import connect
    from tdd_sandbox.settings import load_settings

    for name in languages:  # an unknown name is named before Docker is asked for
        get_language(name)
    settings = load_settings(default_config(config, Path.cwd()))
    for tag in build_images(connect(), settings.images, languages, force=force, progress=progress):
        echo(tag)
    return 0


@images.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the images as JSON.")
@config_option
def list_(as_json: bool, config: Path | None) -> int:
    """Show each language's current image tag and whether it is built."""
    from rich.table import Table

    from tdd_sandbox.images.inventory import list_images
    from tdd_sandbox.sandbox.client import connect
    from tdd_sandbox.settings import load_settings

    settings = load_settings(default_config(config, Path.cwd()))
    if as_json:
        echo_json([vars(row) for row in list_images(connect(), settings.images)])
        return 0
    table = Table(title="sandbox images")
    for column in ("language", "tag", "present", "size"):
        table.add_column(column)
    for row in list_images(connect(), settings.images):
        size = f"{row.size_bytes / 1024**2:.0f} MiB" if row.size_bytes else ""
        table.add_row(row.language, row.tag, "yes" if row.present else "no", size)
    console().print(table)
    return 0


@images.command("bootstrap")
@click.argument("releases", nargs=-1, type=LazyChoice(_releases))
@config_option
def bootstrap(releases: tuple[str, ...], config: Path | None) -> int:
    """Build Debian base images with debootstrap when no registry is reachable: RELEASES,
    or by default each release an image builds on that the engine has no base for."""
    from tdd_sandbox.images.bootstrap import bootstrap_base
    from tdd_sandbox.images.inventory import missing_bases
    from tdd_sandbox.sandbox.client import connect
    from tdd_sandbox.settings import load_settings

    settings = load_settings(default_config(config, Path.cwd()))
    client = connect()
    chosen = list(releases) or missing_bases(client, settings.images)
    if not chosen:
        echo("every base image is present")
    for release in chosen:
        echo(bootstrap_base(client, settings.images, release, progress))
    return 0
