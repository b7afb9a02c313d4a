"""Options shared by several commands, and the progress sink for the terminal.

Building a command's options imports nothing but click: `--help` must answer at once, so
whatever an option needs to check a value (the settings' bounds, a registry) is imported
when a value comes to be checked, and each command imports what it runs in its body.
"""

from __future__ import annotations

import enum
import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tdd_sandbox.cli.terminal import console

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


class UserPath(click.Path):
    """A path as the user meant it: `~` expanded and made absolute against the working
    directory at once, so no later step (git runs in other directories) can read it
    relative to something else."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(path_type=Path, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Expand and absolutise, then let click check existence and kind."""
        if isinstance(value, str | os.PathLike):
            value = Path(os.fspath(value)).expanduser().resolve()
        return super().convert(value, param, ctx)


def config_option(func: F) -> F:
    """`--config FILE`: a YAML settings file (else `tdd.yaml` where the command looks)."""
    return click.option(
        "--config",
        "config",
        type=UserPath(dir_okay=False),
        default=None,
        help="YAML settings file (default: tdd.yaml in the repo, if present).",
    )(func)


@functools.cache
def _stderr() -> Console:
    return console(stderr=True, highlight=False)


class Verbosity(enum.IntEnum):
    """How much a command says as it goes: `-q`, nothing said, `-v`."""

    QUIET = 0
    NORMAL = 1
    VERBOSE = 2


VERBOSITY = {"level": Verbosity.NORMAL}
"""Set once by the `tdd-sandbox` group from `-q`/`-v`; read by what says progress."""


def verbose() -> bool:
    """Whether `-v` asked for every detail (a rejection in full, each job's costs)."""
    return VERBOSITY["level"] >= Verbosity.VERBOSE


def progress(message: str) -> None:
    """Show one progress line on stderr (none under `-q`)."""
    if VERBOSITY["level"] <= Verbosity.QUIET:
        return
    from rich.markup import escape

    _stderr().print(f"[dim]» {escape(message)}[/dim]")


def detail(message: str) -> None:
    """Show one line of detail on stderr, under `-v` only."""
    if not verbose():
        return
    from rich.markup import escape

    _stderr().print(f"[dim]  {escape(message)}[/dim]")


def default_repo(repo: Path | None, kata: Path) -> Path | None:
    """`--repo` if given, else the folder the kata file sits in when that is a repository
    (`init` puts kata.md at its root: `cd repo && tdd-sandbox run kata.md`) or holds only
    the user's kata.md and tdd.yaml (it is adopted); else None, and the run makes
    `./<kata>-<language>`."""
    from tdd_sandbox.repo.scaffolding import adoptable

    if repo is not None:
        return repo
    folder = kata.parent
    return folder if (folder / ".git").exists() or adoptable(folder) else None


def default_config(config: Path | None, directory: Path | None) -> Path | None:
    """`--config` if given, else the tdd.yaml of `directory` or of the nearest folder above
    it up to its repository's root, when the user wrote it (`repo.config.find_config`).

    Raises:
        ConfigError: a run's commit changed that tdd.yaml.
    """
    from tdd_sandbox.repo.config import find_config

    if config is not None or directory is None:
        return config
    return find_config(directory)


def transcript_options(func: F) -> F:
    """`--record FILE` and `--replay FILE`."""
    func = click.option(
        "--replay",
        type=UserPath(dir_okay=False),
        help="Answer from a recorded FILE; no endpoint needed.",
    )(func)
    return click.option(
        "--record",
        type=UserPath(dir_okay=False),
        help="Keep every model exchange in FILE.",
    )(func)


class SettingNumber(click.ParamType[Any]):
    """A number for the root setting `setting`, checked against that field's bounds (its
    `ge`/`gt`/`le`) when a value is given, so each bound is declared once: on the setting."""

    name = "number"

    def __init__(self, setting: str) -> None:
        self.setting = setting

    @functools.cached_property
    def checked(self) -> click.ParamType[Any]:
        """The click range type of the field, its bounds read from the settings model."""
        import annotated_types

        from tdd_sandbox.settings import Settings

        field = Settings.model_fields[self.setting]
        bounds: dict[str, Any] = {}
        for rule in field.metadata:
            if isinstance(rule, annotated_types.Ge | annotated_types.Gt):
                bounds["min"] = rule.ge if isinstance(rule, annotated_types.Ge) else rule.gt
                bounds["min_open"] = isinstance(rule, annotated_types.Gt)
            elif isinstance(rule, annotated_types.Le):
                bounds["max"] = rule.le
        if field.annotation is int:
            return click.IntRange(**bounds)
        if field.annotation is float:
            return click.FloatRange(**bounds)
        raise TypeError(f"setting {self.setting!r} is not a number: give it an option")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The value as the field's number type, within its bounds."""
        return self.checked.convert(value, param, ctx)


def setting_option(name: str, *flags: str, help: str) -> Callable[[F], F]:
    """An option that sets the root setting `name` (a number; see `SettingNumber`). It
    defaults to None, which leaves the setting to the file, the environment or the field's
    own default."""
    return click.option(*flags, name, type=SettingNumber(name), default=None, help=help)


class LazyChoice(click.Choice[str]):
    """A choice among names a registry holds, read from it only when help shows them or a
    value is checked."""

    def __init__(self, load: Callable[[], Sequence[str]]) -> None:
        self._load = load
        super().__init__(())

    @property
    def choices(self) -> Sequence[str]:
        """The registry's names."""
        return tuple(self._load())

    @choices.setter
    def choices(self, _: Sequence[str]) -> None:
        pass  # click's own __init__ sets them; the registry keeps them


def language_packs() -> list[str]:
    """The language packs' names, from their folders (each pack is a sub-package of
    `tdd_sandbox.languages`), found without importing the registry: help answers at once."""
    import importlib.util
    import pkgutil

    found = importlib.util.find_spec("tdd_sandbox.languages")
    places = found.submodule_search_locations if found is not None else None
    return sorted(name for _, name, package in pkgutil.iter_modules(places or []) if package)


class _LanguageChoice(LazyChoice):
    """The registered languages: help lists them, and a name not among them is the
    registry's own one-line error."""

    def __init__(self) -> None:
        super().__init__(language_packs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The registered name `value` stands for, in any case."""
        from tdd_sandbox.errors import UsageError
        from tdd_sandbox.languages.registry import get_language

        try:
            return get_language(str(value)).name
        except UsageError as exc:
            self.fail(str(exc), param, ctx)


def language_option(help: str, **kwargs: Any) -> Callable[[F], F]:
    """`--language`/`-l`: one of the registered languages, which help lists."""
    return click.option("--language", "-l", type=_LanguageChoice(), help=help, **kwargs)
