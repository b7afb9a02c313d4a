"""One role's model, asked for edit plans."""

from __future__ import annotations

from dataclasses import dataclass, replace

from tdd_sandbox.agents.context import Exchange, Situation, restated, user_prompt
from tdd_sandbox.agents.prompts import system_prompt
from tdd_sandbox.languages.parts import Layout
from tdd_sandbox.llm.chat import ChatRequest
from tdd_sandbox.llm.formats import Ask, EditFormat, Sample, get_format
from tdd_sandbox.llm.structured import PlanAnswer, PlanAsker
from tdd_sandbox.llm.usage import UsageLedger
from tdd_sandbox.settings import split_model
from tdd_sandbox.vocabulary.roles import Role


@dataclass
class Agent:
    """A role bound to a model (`provider:model`) behind a plan asker."""

    role: Role
    model: str
    temperature: float
    max_tokens: int
    context_chars: int
    asker: PlanAsker
    ledger: UsageLedger
    seed: int | None = None
    answers_as: str = ""
    """The model that answers, where it is not `model`: a replay's recorded one, named in
    every line and record of the attempt (`said_model`)."""

    @property
    def said_model(self) -> str:
        """The model a line or record names for this agent's answers."""
        return self.answers_as or self.model

    def propose(self, situation: Situation) -> tuple[PlanAnswer, Exchange]:
        """Ask for one edit plan; a reply that is not a valid plan comes back as an error.
        Also the ask and its answer as a retry's conversation keeps them (a tool call's
        arguments as the answer's text).

        Raises:
            InfrastructureError: the endpoint is unusable.
        """

        def asked(edit_format: EditFormat) -> str:
            # The task of files to write is the format's: whole files or edits to them.
            told = situation
            if situation.writes:
                task = get_format(edit_format).asks(situation.writes, situation.files)
                told = replace(situation, task=task)
            return user_prompt(told, self.role, budget_chars=self.context_chars)

        user = asked(self.asker.edit_format)
        sent = [user]
        earlier = [
            {"role": speaker, "content": text}
            for exchange in situation.earlier
            for speaker, text in (("user", exchange.asked), ("assistant", exchange.answered))
        ]
        ask = Ask(
            target=situation.target, files=situation.files, may_finish=situation.may_finish,
            may_keep=situation.may_keep,
            fence=situation.language.name, sample=sample(self.role, situation.language),
            question="\n".join([*(exchange.asked for exchange in situation.earlier), user]),
        )  # fmt: skip

        def build(edit_format: EditFormat) -> ChatRequest:
            system = system_prompt(
                self.role, situation.language, edit_format, ask, solo=situation.solo
            )
            sent.append(asked(edit_format))
            conversation = [*earlier, {"role": "user", "content": sent[-1]}]
            if situation.earlier and not get_format(edit_format).continues:
                first = situation.earlier[0].asked
                again = restated(first, situation.previous_error)
                conversation = [{"role": "user", "content": again}]
            return ChatRequest(
                role=self.role.value,
                model=split_model(self.model)[1],
                messages=[{"role": "system", "content": system}, *conversation],
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                seed=self.seed,
            )

        answer = self.asker.ask(build, ask)
        self.ledger.add(self.role.value, self.model, answer.reply)
        return answer, Exchange(sent[-1], answer.reply.tool_arguments or answer.reply.text)


def sample(role: Role, language: Layout) -> Sample:
    """The worked answer `role`'s example shows: a test for the tester, code for the others."""
    if role is Role.TESTER:
        return Sample(
            "a test that `count_vowels(word)` counts a word's vowels", *language.test_sample,
            subject="count_vowels",
        )  # fmt: skip
    return Sample("`twice(n)`, which doubles a number", *language.sample)
