"""The engine side of a run: a Docker client, the sandbox provider and the images.

Every command that runs gates goes through here, so images are resolved once and every
container is destroyed when the runtime closes, however the run ends.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from tdd_sandbox.closing import Closing
from tdd_sandbox.gates import run_gates
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.images.builder import Progress, ensure_image, quiet
from tdd_sandbox.languages import detect_language, get_language
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.docker import DockerSandbox, DockerSandboxProvider, connect
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.settings import Settings


class Runtime(Closing):
    """Opens sandboxes for languages, building their images on first use."""

    def __init__(
        self, settings: Settings, *, progress: Progress = quiet, run_id: str | None = None
    ) -> None:
        self.settings = settings
        self.progress = progress
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.client = connect()
        self.provider = DockerSandboxProvider(
            settings.sandbox, run_id=self.run_id, client=self.client
        )
        self._images: dict[str, str] = {}

    def image_for(self, language: Language) -> str:
        """The language's image tag, built if missing, and warm containers started for it.

        Raises:
            PrerequisiteError: the image cannot be found or built.
        """
        if language.name not in self._images:
            self._images[language.name] = ensure_image(
                self.client, language.name, self.settings.images, self.progress
            )
            self.provider.prewarm(self._images[language.name])
        return self._images[language.name]

    def open(self, language: Language, snapshot: Snapshot) -> DockerSandbox:
        """A sandbox holding `snapshot`.

        Raises:
            SandboxUnavailable: no container could be started.
        """
        return self.provider.open(self.image_for(language), snapshot)

    def close(self) -> None:
        """Destroy every container of this runtime."""
        self.provider.close()


def check_directory(
    directory: Path,
    settings: Settings,
    *,
    language: str | None = None,
    timeout_s: float | None = None,
    progress: Progress = quiet,
) -> GateReport:
    """Run every gate of the repo at `directory` in a sandbox.

    Raises:
        UsageError: the directory or language is wrong.
        PrerequisiteError, SandboxUnavailable: Docker or an image is not usable.
    """
    snapshot = Snapshot.from_directory(directory)
    chosen = language or settings.language
    plugin = get_language(chosen) if chosen else detect_language(snapshot.files)
    with Runtime(settings, progress=progress) as runtime, runtime.open(plugin, snapshot) as box:
        return run_gates(
            box,
            plugin,
            snapshot.files,
            override=settings.gates.get(plugin.name),
            timeout_s=timeout_s,
        )
