"""What each tool of the MCP server takes and returns: names, descriptions and JSON Schemas.

Why written by hand rather than derived from Python signatures: the schema is the whole contract
a model reads before it calls a tool, so every field carries its type, its range and an example,
and nothing else (no generated titles, no ``anyOf`` a client cannot map). The schemas keep to
the part of JSON Schema every client and model provider accepts: one ``type`` per field (a
missing value is an absent field, never ``null``), ``required``, ``additionalProperties: false``,
``minimum``/``maximum``, ``minLength``, ``minItems``/``maxItems``; a turn's metadata and a search's
filter are open objects (``additionalProperties: true``: names of the caller's choosing, checked by the
memory's own rules, :mod:`graphmem.data.metadata`). :mod:`graphmem.server.tools`
checks every call against these same dicts, so what a schema promises and what the server
refuses cannot drift apart.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DATE_FORMS", "MAX_K", "MAX_PAGE", "MAX_TURNS", "TOOLS", "Spec"]

Spec = dict[str, Any]

MAX_K = 100
"""The most turns one search or question returns: a reply longer than that is no longer read."""

MAX_TURNS = 1000
"""The most turns one ``remember`` call takes: larger batches belong to ``graphmem ingest``."""

MAX_PAGE = 1000
"""The most turns one ``turns`` page lists."""

MAX_OFFSET = 2**53 - 1
"""The largest ``offset``: the largest whole number every JSON client reads exactly (JavaScript's
``Number.MAX_SAFE_INTEGER``), far below what the page's slice (``sys.maxsize``) or a store's 64-bit
integer takes, so that an offset past it is the argument error, not an overflow inside the store."""

DATE_FORMS = ('ISO 8601 ("2023-05-08", "2023-05-08T14:30:00", "2023-05-08 14:30:00"), "2023/05/08", '
              '"1:56 pm on 8 May, 2023" or "2023/05/20 (Sat) 02:21"')

_USER = {"type": "string", "minLength": 1, "maxLength": 200,
         "description": "Whose memory: a partition of this server's store, NOT authentication (any caller of this "
                        "server may name any user). Omitted: the turns remembered without a user. "
                        "Example: \"alice\"."}
_CONVERSATION = {"type": "string", "minLength": 1, "maxLength": 200,
                 "description": "A conversation's id. Example: \"chat-2024-06-01\"."}
_AS_OF = {"type": "string", "minLength": 1, "maxLength": 100,
          "description": "When the question is asked, so that relative dates in it (\"last week\", \"10 days ago\") "
                         f"name days, and nothing said after that day is used: {DATE_FORMS}. Omitted: relative "
                         "dates name no day, and everything held is used."}
_K = {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": 5,
      "description": f"How many turns to return, 1 to {MAX_K}; default 5."}

_METADATA = {"type": "object", "additionalProperties": True,
             "description": "Tags of your choosing for the turn: a flat object of names (letters, digits, '_', '.', "
                            "'-'; at most 64) to a string, a number or a boolean, no nesting. Example: "
                            "{\"source\": \"email\", \"importance\": 3, \"pinned\": true}."}
_WHERE = {"type": "object", "additionalProperties": True,
          "description": "Only turns whose metadata match: each name to a value, or to a list of values any of which "
                         "matches; every name given must match. Omitted: every turn. Example: "
                         "{\"source\": [\"email\", \"sms\"], \"pinned\": true}."}

_TURN_OUT = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "The turn's id (unique in the memory)."},
        "speaker": {"type": "string"},
        "text": {"type": "string"},
        "date": {"type": "string", "description": "When it was said, ISO 8601; absent when undated."},
        "conversation": {"type": "string"},
        "metadata": {"type": "object", "description": "The turn's metadata, as remembered; absent when it has none."},
    },
    "required": ["id", "speaker", "text", "conversation"],
}

_TURN_IN = {
    "type": "object",
    "properties": {
        "speaker": {"type": "string", "minLength": 1, "maxLength": 200,
                    "description": "Who said it: a person's name (\"Ann\") or a role (\"user\", \"assistant\")."},
        "text": {"type": "string", "maxLength": 100000, "description": "What was said, verbatim."},
        "date": {"type": "string", "minLength": 1, "maxLength": 100,
                 "description": f"When it was said: {DATE_FORMS}. Omitted: undated (a question about when it "
                                "happened cannot then be answered from it)."},
        "id": {"type": "string", "minLength": 1, "maxLength": 500,
               "description": "Your own id for the turn, unique in the memory. Omitted: a stable id made from "
                              "the conversation, user, speaker, text and date, so the same turn remembered twice "
                              "is kept once (give ids to keep two identical utterances apart)."},
        "metadata": _METADATA,
    },
    "required": ["speaker", "text"],
    "additionalProperties": False,
}


def _tool(title: str, description: str, properties: dict[str, Spec], required: list[str], output: dict[str, Spec],
          hints: dict[str, bool], absent: tuple[str, ...] = ()) -> Spec:
    """One tool's entry: every input closed (an unknown argument is refused, never ignored); every
    output field present in every result but those in ``absent``."""
    return {
        "title": title,
        "description": description,
        "input_schema": {"type": "object", "properties": properties, "required": required,
                         "additionalProperties": False},
        "output_schema": {"type": "object", "properties": output, "required": [k for k in output if k not in absent]},
        "hints": hints,
    }


_READS = {"read_only": True, "destructive": False, "idempotent": True}

TOOLS: dict[str, Spec] = {
    "remember": _tool(
        "Remember dialogue turns",
        "Store one or more dialogue turns in the memory. Each is searchable as soon as this call returns (no model "
        "is called, nothing is summarised: the words said are kept). Give each turn its speaker and text, and its "
        "date when known: dates let later questions about when something happened be answered. Remembering a turn "
        "the memory already holds (same id, or same content without an id) adds nothing. Returns how many turns "
        "were added and every turn's id, in the order given. Example: {\"turns\": [{\"speaker\": \"Ann\", \"text\": "
        "\"I adopted a dog called Rex yesterday.\", \"date\": \"2023-05-08\"}], \"conversation\": \"ann-chat\"}",
        {"turns": {"type": "array", "minItems": 1, "maxItems": MAX_TURNS, "items": _TURN_IN,
                   "description": f"The turns to remember, in the order they were said: 1 to {MAX_TURNS}."},
         "conversation": {**_CONVERSATION, "description": "The conversation the turns belong to. Omitted: "
                                                          "\"default\". Example: \"ann-chat\"."},
         "user": _USER},
        ["turns"],
        {"added": {"type": "integer", "description": "Turns new to the memory."},
         "held": {"type": "integer", "description": "Turns the memory held already (nothing changed for them)."},
         "ids": {"type": "array", "items": {"type": "string"}, "description": "Every given turn's id, in order."}},
        {"read_only": False, "destructive": False, "idempotent": True}),
    "update": _tool(
        "Update a remembered turn",
        "Change one remembered turn in place: its text, speaker, date or metadata (what is not given stays; "
        "metadata replaces the turn's whole metadata, {} removes it). Use it to correct a turn or tag it, rather "
        "than forgetting it and remembering it again: it keeps its id and conversation, and what the memory read "
        "from it (facts, search) is read again from the new text at once. An id the memory does not hold is an "
        "error (remember the turn instead). Returns the turn as it is now. Example: {\"id\": \"m-1f2e\", \"text\": "
        "\"I adopted a cat called Rex yesterday.\"}",
        {"id": {"type": "string", "minLength": 1, "maxLength": 500,
                "description": "The turn's id, as remember, search or turns returned it."},
         "text": {"type": "string", "maxLength": 100000, "description": "What the turn says now, verbatim."},
         "speaker": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Who said it."},
         "date": {"type": "string", "minLength": 1, "maxLength": 100, "description": f"When it was said: {DATE_FORMS}."},
         "metadata": _METADATA,
         "user": _USER},
        ["id"],
        {"turn": {**_TURN_OUT, "description": "The turn as the memory now holds it."}},
        {"read_only": False, "destructive": True, "idempotent": True}),
    "search": _tool(
        "Search remembered turns",
        "Find the remembered turns that best match a query, best first: ranked by the words, names and dates they "
        "share with it (a question naming a person searches that person's conversations first). Returns each "
        "turn's id, speaker, text, date and conversation. Use it to recall what was said; use ask for a short "
        "answer. Example: {\"query\": \"Who adopted a dog?\", \"k\": 3}",
        {"query": {"type": "string", "minLength": 1, "maxLength": 10000,
                   "description": "What to look for, in words: a question or keywords. Example: \"Ann's dog\"."},
         "k": _K,
         "conversation": {**_CONVERSATION, "description": "Search this conversation only. Omitted: every "
                                                          "conversation. Example: \"ann-chat\"."},
         "user": _USER, "as_of": _AS_OF, "where": _WHERE},
        ["query"],
        {"turns": {"type": "array", "items": _TURN_OUT, "description": "The turns found, best first."}},
        _READS),
    "ask": _tool(
        "Ask the memory a question",
        "Answer a question from what the memory holds: a short reply read off the best matching turns (a question "
        "about a person's job, home, employer, partner, pet, car... is answered from what holds for them, or held "
        "before for \"before\", \"used to\", first for \"at first\", \"initially\"), its confidence, and the turns "
        "it cites. When nothing held answers it well enough, the reply is \"No information available\" and "
        "abstained is true: then say you do not know rather than guess. Give as_of for questions with relative "
        "dates. Example: {\"question\": \"When did Ann adopt a dog?\"}",
        {"question": {"type": "string", "minLength": 1, "maxLength": 10000,
                      "description": "The question, in words. Example: \"What is Ann's dog called?\"."},
         "k": {**_K, "description": f"How many turns to read and cite, 1 to {MAX_K}; default 5."},
         "conversation": {**_CONVERSATION, "description": "Answer from this conversation only. Omitted: every "
                                                          "conversation."},
         "user": _USER, "as_of": _AS_OF, "where": _WHERE},
        ["question"],
        {"reply": {"type": "string", "description": "The answer, or \"No information available\"."},
         "abstained": {"type": "boolean", "description": "True when the memory declined to answer."},
         "confidence": {"type": "number", "description": "0 to 1. By default the share of the question's words "
                        "the best turn covers (not a probability). With `graphmem serve --confidence calibrated`, the "
                        "probability that the memory holds the answer: out of fold, of the answers given at 0.9 or "
                        "more 95 in 100 were answerable, at 0.8 to 0.9 87 in 100, at 0.6 to 0.7 2 in 3, at 0.3 to "
                        "0.4 2 in 5, under 0.1 1 in 20 (expected calibration error 0.015; docs/confidence.md)."},
         "floor": {"type": "number", "description": "The confidence below which the memory abstains (calibrated: "
                                                    "one floor per kind of chat, keeping about 15% of answerable "
                                                    "questions quiet)."},
         "cited": {"type": "array", "items": _TURN_OUT, "description": "The turns the reply was read from."},
         "sentence": {"type": "string", "description": "The sentence the reply was read from, as said. Absent "
                                                       "when the memory abstained."},
         "source": {"type": "string", "description": "The id of the turn that sentence belongs to."}},
        _READS, absent=("sentence", "source")),
    "facts": _tool(
        "Facts held about a person",
        "What holds about a person: the facts the memory has read from what was said (no model: grammar "
        "rules), one per clause, each with its attribute (residence, occupation, employer, partner, pet, "
        "vehicle, instrument, study, diet, language, favourite:<thing>, count:<thing>, frequency:<thing>, "
        "other:<verb>) and value, the turn it came from and when it was said. A fact holds from valid_from until "
        "a later statement ends it: a new value of a one-valued attribute (a move ends the old home, a new job "
        "the old one), an ending (\"sold the car\", \"we broke up\"), or a negation. Pets, instruments and "
        "languages hold several values at once. By default only what holds now; as_of: what held at that "
        "moment, from what was said by then; history: every value of each attribute in order, the ended "
        "ones with valid_to and ended_by (the turn that ended it). Example: {\"about\": \"Ann\"}",
        {"about": {"type": "string", "minLength": 1, "maxLength": 200,
                   "description": "The person's name, as they speak or are spoken of. Example: \"Ann\"."},
         "as_of": {**_AS_OF, "description": f"What held at this moment: {DATE_FORMS}. Omitted: now."},
         "history": {"type": "boolean", "default": False,
                     "description": "Every fact said, each attribute's values together in order, past ones "
                                    "included (with valid_to and ended_by); default false: what holds."},
         "user": _USER,
         "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 100,
                   "description": f"How many facts to return at most, 1 to {MAX_PAGE}; default 100."}},
        ["about"],
        {"facts": {"type": "array", "items": {
            "type": "object",
            "properties": {"subject": {"type": "string"}, "predicate": {"type": "string"},
                           "object": {"type": "string"}, "negated": {"type": "boolean"},
                           "sentence": {"type": "string", "description": "The clause it was read from."},
                           "turn_id": {"type": "string"}, "said_on": {"type": "string"},
                           "valid_from": {"type": "string"}, "valid_to": {"type": "string"},
                           "attribute": {"type": "string", "description": "What it says of the person."},
                           "value": {"type": "string", "description": "The attribute's value, lower case."},
                           "ended_by": {"type": "string", "description": "The turn that ended it."}},
            "required": ["subject", "predicate", "object", "negated", "sentence", "turn_id", "said_on",
                         "valid_from"]}}},
        _READS),
    "forget": _tool(
        "Forget turns",
        "Remove turns from the memory for good: the turns with these ids, or every turn of a conversation, or "
        "every turn of a user. Give at least one of ids, conversation and user; given together, only the turns "
        "matching all of them are removed. Returns how many turns were removed (0 when none matched) and, with "
        "ids, which matched and which were not found (an id is found only among the given user's turns). "
        "Example: {\"conversation\": \"ann-chat\"}",
        {"ids": {"type": "array", "minItems": 1, "maxItems": 10000,
                 "items": {"type": "string", "minLength": 1, "maxLength": 500},
                 "description": "The ids of the turns to remove, as remember, search or turns returned them."},
         "conversation": {**_CONVERSATION, "description": "Remove this conversation's turns."},
         "user": {**_USER, "description": "Remove this user's turns (a partition of this server's store, NOT "
                                          "authentication). Example: \"alice\"."}},
        [],
        {"removed": {"type": "integer", "description": "How many turns were removed."},
         "matched": {"type": "array", "items": {"type": "string"},
                     "description": "With ids: those that matched a turn of this user (and conversation), removed."},
         "not_found": {"type": "array", "items": {"type": "string"},
                       "description": "With ids: those that matched no turn of this user (and conversation): "
                                      "nothing was removed for them. An id is its user's: a turn remembered with "
                                      "a user is forgotten by giving that user."}},
        {"read_only": False, "destructive": True, "idempotent": True}, absent=("matched", "not_found")),
    "turns": _tool(
        "List remembered turns",
        "List the turns the memory holds, conversation by conversation (in the order of their ids), each "
        "conversation's turns in the order they were remembered. Page with limit and offset: next_offset is "
        "present while more turns remain. Example: {\"conversation\": \"ann-chat\", \"limit\": 20}",
        {"conversation": {**_CONVERSATION, "description": "List this conversation only. Omitted: all."},
         "user": _USER,
         "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 50,
                   "description": f"How many turns to list, 1 to {MAX_PAGE}; default 50."},
         "offset": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0,
                    "description": "How many turns to skip first (the previous page's next_offset), 0 to "
                                   f"{MAX_OFFSET}; default 0."}},
        [],
        {"turns": {"type": "array", "items": _TURN_OUT},
         "next_offset": {"type": "integer", "description": "The offset of the next page; absent on the last."}},
        _READS, absent=("next_offset",)),
    "stats": _tool(
        "What the memory holds",
        "How much the memory holds: the number of turns and conversations and, for each conversation (the first "
        "100 by id), its turn count and its first and last dates. Call it to see what there is before searching. "
        "Example: {}",
        {"user": _USER},
        [],
        {"turns": {"type": "integer"}, "conversations": {"type": "integer"},
         "read_only": {"type": "boolean", "description": "True when this server refuses remember and forget."},
         "by_conversation": {"type": "array", "items": {
             "type": "object",
             "properties": {"conversation": {"type": "string"}, "turns": {"type": "integer"},
                            "first": {"type": "string"}, "last": {"type": "string"}},
             "required": ["conversation", "turns"]}}},
        _READS),
}
"""Every tool by name, in the order they are listed."""
