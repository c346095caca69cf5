"""A LangChain retriever over a graphmem memory: ``Memory.search``'s turns as ``Document``s.

    from graphmem import Memory
    from graphmem.integrations.langchain import GraphmemRetriever

    retriever = GraphmemRetriever(memory=Memory(path="chat.db"), k=4, user="ann")
    retriever.invoke("Who adopted a dog?")   # [Document(page_content="I adopted ...", metadata={...})]

Each document is one turn: its text, and as metadata its id, speaker, date, conversation, user and,
when the memory scores its hits, the score. ``k`` is set on the retriever or per call
(``retriever.invoke(query, k=2)``), as LangChain's standard retriever tests expect. Needs the
``langchain`` extra (langchain-core).
"""

from __future__ import annotations

from typing import Any

from graphmem.errors import GraphmemError, install
from graphmem.integrations.turns import ranked, turn_metadata

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict
except ImportError as exc:  # the extra is missing: one line saying how to add it
    raise GraphmemError(f"graphmem.integrations.langchain needs langchain-core: {install('langchain')}") from exc

__all__ = ["GraphmemRetriever"]


class GraphmemRetriever(BaseRetriever):
    """The turns a graphmem ``Memory`` finds for a query, best first, as LangChain documents.

    ``memory``: any ``graphmem.Memory`` (in RAM, a file or Neo4j); ``k``: how many documents;
    ``user`` and ``conversation``: whose turns, and of which conversation (None: those that carry
    no user; every conversation)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any
    k: int = 4
    user: str | None = None
    conversation: str | None = None

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[Document]:
        """One search of the memory; ``k``, ``user`` and ``conversation`` may be given per call."""
        k = kwargs.get("k", self.k)
        user = kwargs.get("user", self.user)
        conversation = kwargs.get("conversation", self.conversation)
        return [Document(page_content=turn.text, id=turn.id, metadata=turn_metadata(turn, score))
                for turn, score in ranked(self.memory, query, k, conversation=conversation, user=user)]
