"""The Docker checker: a client, the sandbox provider and the images.

Every command that runs code goes through here, so images are resolved once and every
container is destroyed when the checker closes, however the run ends.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from typing_extensions import override

from tdd_sandbox.errors import SandboxUnavailable
from tdd_sandbox.execution.base import Checked, Checker, GateCheck
from tdd_sandbox.execution.formatting import format_files, needs_formatting
from tdd_sandbox.execution.steps import plan_gates, run_gates, split_lanes, with_sealable_tests
from tdd_sandbox.grading.gates import GateReport
from tdd_sandbox.images.builder import Progress, ensure_image, quiet
from tdd_sandbox.languages.base import Language
from tdd_sandbox.sandbox.client import connect
from tdd_sandbox.sandbox.docker import DockerSandbox
from tdd_sandbox.sandbox.docker_provider import DockerSandboxProvider
from tdd_sandbox.sandbox.leftovers import collect_containers
from tdd_sandbox.sandbox.snapshot import Snapshot
from tdd_sandbox.sandbox.versions import EngineVersions, read_versions
from tdd_sandbox.settings import GateOverride, Settings
from tdd_sandbox.vocabulary.cancel import CancelToken
from tdd_sandbox.vocabulary.cleanup import GcReport
from tdd_sandbox.vocabulary.results import GateKind


class DockerChecker(Checker):
    """Opens sandboxes for languages, building their images on first use."""

    kind = "docker"
    runs_code = True

    def __init__(
        self, settings: Settings, *, progress: Progress = quiet, run_id: str | None = None
    ) -> None:
        super().__init__(settings, progress=progress, run_id=run_id)
        self.client = connect()
        self.provider = DockerSandboxProvider(
            settings.sandbox, run_id=self.run_id, client=self.client
        )
        self._images: dict[str, str] = {}
        # Sandboxes open from several threads (a proof's three, katas proved side by side):
        # one of them builds a missing image while the others wait for it.
        self._images_lock = threading.Lock()
        self._engine: EngineVersions | None = None

    def image_for(self, language: Language) -> str:
        """The language's image tag, built if missing, and warm containers started for it.

        Raises:
            PrerequisiteError: the image cannot be found or built.
        """
        with self._images_lock:
            if language.name not in self._images:
                self._images[language.name] = ensure_image(
                    self.client, language.name, self.settings.images, self.progress
                )
                self.provider.prewarm(self._images[language.name], preload=language.preload)
            return self._images[language.name]

    @override
    def versions(self, language: Language) -> dict[str, str]:
        """The engine, its OCI runtime, the kernel and the language's image tag (built now
        if missing, as the first gate would).

        Raises:
            PrerequisiteError: the image cannot be found or built.
        """
        image = self.image_for(language)
        if self._engine is None:
            self._engine = read_versions(self.client, self.settings.sandbox.runtime)
        return {"sandbox": self.kind, **self._engine.to_json(), "image": image}

    @override
    def open(self, language: Language, snapshot: Snapshot) -> DockerSandbox:
        """A sandbox holding `snapshot`.

        Raises:
            SandboxUnavailable: no container could be started.
        """
        return self.provider.open(self.image_for(language), with_sealable_tests(language, snapshot))

    @override
    def check(self, question: GateCheck, *, token: CancelToken | None = None) -> Checked:
        """The gates in fresh sandboxes (see `Checker.check`): one per lane of
        `split_lanes`, run at once, their results in the language's gate order.

        Raises:
            SandboxUnavailable: a sandbox failed, or the check was cancelled.
            PrerequisiteError: no image for the language.
        """
        language = question.language
        override = self.settings.gates.get(language.name)
        # In a warm container a lane is fresh namespaces, not a container of its own.
        per_container = self.settings.sandbox.isolation == "container"
        lanes = split_lanes(language, override, question.kinds, lanes_cost_containers=per_container)
        if len(lanes) < 2:
            return self._check_lane(question, question.kinds, override, token)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tdd-lane") as pool:
            beside = pool.submit(self._check_lane, question, lanes[0], override, token)
            ours = self._check_lane(question, lanes[1], override, token)
            theirs = beside.result()
        order = [gate.kind for gate in plan_gates(language, override)]
        merged = sorted(theirs.report.gates + ours.report.gates, key=lambda g: order.index(g.kind))
        return Checked(GateReport(language.name, tuple(merged)), theirs.formatted)

    def _check_lane(
        self,
        question: GateCheck,
        kinds: frozenset[GateKind] | None,
        override: GateOverride | None,
        token: CancelToken | None,
    ) -> Checked:
        """The gates of `kinds` (None: every gate) in one fresh sandbox, and the files
        formatted there when the format gate is among them and failed."""
        formatted = None
        language, files = question.language, question.files
        box = self.open(language, question.sandboxed())
        try:
            if token is not None and not token.register(box.close):
                raise SandboxUnavailable("the attempt was cancelled")
            report = run_gates(
                box,
                language,
                files,
                override=override,
                only=kinds,
                timeout_s=question.timeout_s,
            )
            if question.tidy and needs_formatting(report):
                # The same sandbox holds these files: formatting here saves opening another.
                formatted = format_files(box, language, files, question.tidy)
        finally:
            if token is not None:
                token.unregister(box.close)
            box.close()
        return Checked(report, formatted)

    @override
    def reclaim(self, repo_dir: Path) -> GcReport:
        """A crashed run's worktrees and every container of a run that is not live."""
        report = super().reclaim(repo_dir)
        collect_containers(self.client, report, older_than_s=None)
        return report

    @override
    def close(self) -> None:
        """Destroy every container of this checker."""
        self.provider.close()
