"""Where a person lives and works, and as what, read by the meaning of the value (see :mod:`graphmem.claims.values`):
"The terrace here in Leeds", "Keys go back to the landlord, then I'm off to Leeds for the new contract", "Still at
Google", "I took the Monzo offer", "Head chef now", "that's me retired".
"""

from __future__ import annotations

import re

from graphmem.claims.attributes import Said
from graphmem.claims.clauses import Clause
from graphmem.claims.quality import works
from graphmem.claims.typed import DWELLING, GERUND_JOB, JOB_HEAD, NAME, NOT, NOW, STAY, TRIP, org, place, said
from graphmem.text.things import OCCUPATIONS
from graphmem.text.wordnet_places import PLACES

__all__ = ["employer", "job", "residence"]


def residence(piece: str, sentence: str) -> list[Said]:
    """Where the speaker lives, said by a place and what they have or do there ("our flat in Paris", "Been in
    Toronto three years now", "Left London for Lisbon", "And now Gdansk"), a place left ending too; not a
    trip ("a weekend in Rome")."""
    if m := re.search(rf"\b(?i:used\s+to\s+live|lived)\s+in\s+({NAME})\s+(?i:before|until|till|for\s+\w+\s+years)", piece):
        out = [said("residence", m.group(1), f"live in {m.group(1)}"),  # "I used to live in Madrid before moving here to Lisbon"
               said("residence", m.group(1), f"left {m.group(1)}", ends=True)]
        if (to := re.search(rf"\b(?i:moving|moved|relocating|coming)\s+(?i:here\s+|over\s+|back\s+)?to\s+({NAME})", piece)) and place(to.group(1)):
            out.append(said("residence", to.group(1), f"move to {to.group(1)}"))
        return out
    if NOT.search(piece):
        return []
    if (m := re.match(rf"^(?i:i'm|i\s+am|we're|we\s+are)\s+(?i:now\s+|still\s+|currently\s+|living\s+|based\s+|settled\s+)*in\s+"
                      rf"({NAME})", piece)) and place(m.group(1)) and not TRIP.search(piece):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "I'm in Glasgow and it rains constantly"
    if (m := re.fullmatch(rf"(?i:yep\s+|yes\s+|yeah\s+)?(?i:still|now)\s+({NAME})(?i:\s+now)?", piece)) and place(m.group(1)):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "yep, still Osaka"
    if (m := re.search(rf"\b(?i:taken|took|got|accepted|landed|start(?:ed|ing)?)\s+(?i:an?|the)\s+(?:new\s+)?(?i:posting|transfer|secondment|job"
                       rf"|role|position|post)\s+in\s+({NAME})", piece)) and place(m.group(1)) and not NOT.search(piece):
        return [said("residence", m.group(1), f"move to {m.group(1)}")]  # "I've taken a posting in Singapore"
    if (m := re.match(rf"^(?i:(?:the\s+)?same|(?:a\s+|the\s+)?new|first\s+night\s+in\s+(?:the|my|our)\s+(?:new\s+)?)\s*(?:[a-z]+\s+)?"
                      rf"(?i:flat|apartment|place|house|home|cottage|condo|studio|bedsit|room)\s+in\s+({NAME})", piece)):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "same drafty cottage in Hebden Bridge"
    if (m := re.search(rf"\b(?i:moving|moved|relocating|relocated)\s+(?i:over\s+|back\s+|down\s+|up\s+|here\s+)?to\s+({NAME})", piece)) \
            and not m.group(1).isupper() and not TRIP.search(piece) and (place(m.group(1)) or STAY.search(sentence)
                                                                     or re.search(r"\b(?:house|flat|home|lease|keys)\b", sentence)):
        return [said("residence", m.group(1), f"move to {m.group(1)}")]  # "bought a house!!! moving to Bath"
    if m := re.search(rf"\b(?i:sold|selling|left|leaving|moved\s+out\s+of)\s+(?i:the|our|my)\s+(?:\w+\s+)?(?i:flat|apartment|house|cottage|place"
                      rf"|home|condo|studio|bungalow)\s+in\s+({NAME})", piece):
        out = [said("residence", m.group(1), f"left {m.group(1)}", ends=True)]  # "We sold the flat in Leeds"
        return out + residence(piece[m.end():], sentence)  # "... and bought a farmhouse in Devon"
    if m := re.search(rf"\b(?i:bought|rented|renting|got|found|moved\s+into|moving\s+into)\s+(?i:a|an|the|our|my)\s+(?:\w+\s+)?"
                      rf"(?i:flat|apartment|house|farmhouse|cottage|place|home|condo|studio|bungalow|townhouse)\s+in\s+({NAME})", piece):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "bought a farmhouse in Devon"
    if m := re.match(rf"^(?i:the|my|our)\s+(?:new\s+)?(?i:flat|apartment|place|house|cottage|room|studio)\s+in\s+({NAME})\s+(?i:is|has|gets|feels)\b",
                     piece):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "the flat in Leith is tiny"
    if m := re.search(rf"\b(?i:signed\s+for|got|found|taken|took)\s+(?i:a|the)\s+(?i:room|flat|place|house|studio)\s+in\s+({NAME})", piece):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "I've signed for a room in Partick"
    if (m := re.search(rf"\b(?i:keys?)\s+(?i:for|to)\s+(?i:the|my|our)\s+({NAME})\s+(?i:place|flat|house)\b.*\b(?i:back|landlord|hand)", piece)):
        return [said("residence", m.group(1), f"left {m.group(1)}", ends=True)]  # "keys for the Leith place go back"
    if m := DWELLING.search(piece):
        name = m.group(1) or m.group(2)
        if m.group(1) or place(name):
            return [said("residence", name, f"live in {name}")]  # "Our flat in Paris is tiny", "life in Berlin"
    if (m := re.match(rf"^(?i:i've\s+|we've\s+)?(?i:been|lived)\s+in\s+({NAME})\s+(?:for\s+)?(?:\w+|\d+)\s+(?:years?|months?)", piece)) \
            and place(m.group(1)):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]  # "Been in Toronto three years now"
    if (m := re.search(rf"\b(?i:left|leaving|swapped|traded)\s+({NAME})\s+for\s+({NAME})", piece)) and place(m.group(2)):
        return [said("residence", m.group(1), f"left {m.group(1)}", ends=True),
                said("residence", m.group(2), f"live in {m.group(2)}")]  # "Left London for Lisbon in March"
    if (m := re.match(rf"^({NAME})\s+here\s+(?:i|we)\s+come$", piece)) and place(m.group(1)):
        return [said("residence", m.group(1), f"move to {m.group(1)}")]  # "Phoenix here I come"
    if (m := re.search(r"\b(?:live|living|lives|based|(?:moved|moving|relocated)\s+(?:from\s+[a-z]+(?:\s+[a-z]+)?\s+)?to)\s+(?:in\s+)?"
                       r"([a-z][a-z]+(?:\s+[a-z]+)?)\b",
                       piece)) and ((name := m.group(1).title()) in PLACES or (name := name.split()[0]) in PLACES):
        return [said("residence", name, f"live in {name}")]  # a chat in lower case: "i live in manchester"
    if m := re.search(rf"\b(?:here|back)\s+in\s+(?:the\s+)?({NAME})", piece):
        return [said("residence", m.group(1), f"live in {m.group(1)}")] if place(m.group(1)) else []
    if (m := re.search(rf"\b(?:the|my|our)\s+({NAME})\s+(?:flat|apartment|place|house|home|room|studio|condo)\b", piece)) \
            and place(m.group(1)):
        gone = re.search(r"\b(?:keys?\s+back|hand(?:ing|ed)?\s+(?:back|over)|moving\s+out|move\s+out|moved\s+out|leaving"
                         r"|left|sold|selling|goodbye|last\s+night)\b", piece, re.I)
        return [said("residence", m.group(1), f"live in {m.group(1)}", ends=bool(gone))]
    if (m := re.search(rf"\b(?:off|on|up|down|over|out|headed|heading)\s+(?:to|for)\s+({NAME})", piece)) \
            and place(m.group(1)) and STAY.search(sentence) and not TRIP.search(sentence):
        return [said("residence", m.group(1), f"move to {m.group(1)}")]  # "then I'm off to Leeds for the new contract"
    if (m := re.search(rf"\b(?:signed\s+(?:the|a)\s+lease|got\s+the\s+keys|put\s+down\s+roots|settled)\b.*?\b(?:in|on|for)\s+"
                       rf"(?:a\s+[\w-]+\s+in\s+)?({NAME})", piece, re.I)) and place(m.group(1)):
        return [said("residence", m.group(1), f"live in {m.group(1)}")]
    if (m := re.fullmatch(rf"(?i:and\s+|so\s+)?(?i:now|then)\s+({NAME})|({NAME})\s+now|(?i:still\s+)?in\s+({NAME})(?:\s+now)?",
                          piece)) and place(name := next(g for g in m.groups() if g)):
        return [said("residence", name, f"live in {name}")]  # "And now Gdansk", "Still in Leeds"
    return []


def employer(piece: str, sentence: str) -> list[Said]:
    """Whom the speaker works for, said by an organisation's name beside a light cue ("Still at Google", "I took
    the Monzo offer", "first day at Arup"), or one left; nothing in a piece that only wishes or denies it."""
    if re.search(r"\b(?:not|no\s+longer|never|would|could|might|if|maybe|hope|wish|want)\b", piece, re.I):
        return []
    if (m := re.match(rf"^(?:and\s+)?(?:still|now|currently)\s+(?:at|with)\s+(?:the\s+)?({NAME})", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Still at Google"
    if (m := re.match(rf"^(?i:my\s+|today\s+)?(?i:(first|last|final|day\s+one)\s*(?:day|shift|week)?(?:\s+on\s+the\s+\w+)?\s+(?:at|with)\s+"
                      rf"(?:the\s+)?)({NAME})",
                      piece)) \
            and org(m.group(2)):
        return [said("employer", m.group(2), f"work at {m.group(2)}", ends=m.group(1).lower() in ("last", "final"))]
    if (m := re.match(rf"^(?:(?:another|a|my|the)\s+)?(?:shift|payday|night\s+shift|early\s+shift|(?:mon|tues|wednes|thurs|fri)day"
                      rf"|week|day)\s+at\s+(?:the\s+)?({NAME})",
                      piece, re.I)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Shift at Tesco 6 till 2"
    if (m := re.search(rf"\b(?:took|take|taking|accepted|accept|accepting|got|landed|signed|said\s+yes\s+to)\s+"
                       rf"(?:the|their|an?)\s+({NAME})\s+(?:offer|job|role|position|contract|gig)\b", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "I took the Monzo offer"
    if (m := re.search(rf"\b(?i:my)\s+(?:new\s+|current\s+)?(?i:employer|company|firm|workplace)\s+(?:is|'s)\s+(?:now\s+)?(?:the\s+)?({NAME})",
                       piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "My new employer is the NHS"
    if (m := re.search(rf"\b(?i:signed|got|accepted|took|start(?:ed|ing)?)\s+(?:my|the|a|an|their)\s+(?:new\s+)?(?i:contract|offer|job|role"
                       rf"|position|internship|placement)\s+(?:with|at)\s+(?:the\s+)?({NAME})", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Signed my contract with Google today!"
    if (m := re.search(rf"\b(?i:leaving|left|quit|quitting)\s+({NAME})\b.*?\bfor\s+(?:an?\s+|the\s+)?(?:new\s+)?(?i:role|job|position"
                       rf"|post)\s+(?:at|with)\s+(?:the\s+)?({NAME})", piece)) and org(m.group(1)) and org(m.group(2)):
        return [said("employer", m.group(1), f"left {m.group(1)}", ends=True),
                said("employer", m.group(2), f"work at {m.group(2)}")]  # "Leaving Amazon next month for a role at Shopify"
    if (m := re.match(rf"^(?i:i've\s+)?(?i:been)\s+(?:with|at)\s+(?:the\s+)?({NAME})\s+(?:for|since)\b", piece)) and org(m.group(1)) \
            and (m.group(1).isupper() or works(sentence)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Been with IKEA for six years"
    if (m := re.search(rf"\b(?i:quit|left|leaving|leave)\s+({NAME})\s+(?i:to|and)\s+(?i:join|start\s+at|go\s+to|move\s+to|work\s+for)\s+"
                       rf"({NAME})", piece)) and org(m.group(1)) and org(m.group(2)):
        return [said("employer", m.group(1), f"left {m.group(1)}", ends=True),
                said("employer", m.group(2), f"work at {m.group(2)}")]  # "I quit Deloitte to join KPMG"
    if (m := re.search(rf"\b(?:start(?:ing|ed|s)?|begin(?:ning|s)?|began)\s+at\s+(?:the\s+)?({NAME})", piece)) \
            and org(m.group(1)) and not re.match(r"\d", m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Starting at Stripe on Monday"
    if (m := re.search(r"\b(?i:moved|moving|switched|went)\s+(?i:over\s+)?to\s+([A-Z]{2,}[A-Za-z&]*)\b", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "i moved over to KPMG last month"
    if (m := re.search(rf"\bat\s+(?i:a|the)\s+new\s+(?i:firm|company|job|place|agency|practice|school|studio),\s+({NAME})", sentence)) \
            and org(m.group(1)) and not NOT.search(piece):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "I've started at a new firm, Baker & Co."
    if m := re.search(rf"\b(?i:i'm|i\s+am)\s+(?i:now\s+)?(?:the\s+)?((?:Head|Director|VP|Chief|Manager|Lead)\s+of\s+[A-Z]\w+(?:\s+[A-Z]\w+)?)"
                      rf"\s+at\s+(?:the\s+)?({NAME})", piece):
        return [said("occupation", m.group(1), f"work as {m.group(1)}"),
                said("employer", m.group(2), f"work at {m.group(2)}")]  # "I'm Head of Marketing at Lush"
    if (m := re.search(rf"\b(?i:accepted|took|got|landed)\s+(?i:the|a|an)\s+(?:new\s+)?(?i:post|job|role|position|place|contract)\s+(?:at|with)\s+"
                       rf"(?:the\s+)?({NAME})", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Accepted the post at Guy's."
    if (m := re.match(rf"^({NAME})\s+(?:made|gave)\s+me\s+an?\s+(?:job\s+)?offer", piece)) and org(m.group(1)) and re.search(
            r"\b(?:start|starting|accepted|took|refuse|yes|signed)\b", sentence, re.I):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Saatchi made me an offer I couldn't refuse, starting the 1st"
    if (m := re.search(rf"\b(?i:moved|moving|relocated)\s+(?i:here\s+|over\s+)?from\s+({NAME})", piece)) and place(m.group(1)):
        return [said("residence", m.group(1), f"live in {m.group(1)}"),  # "just moved here from Chicago": where they lived
                said("residence", m.group(1), f"left {m.group(1)}", ends=True)]
    if (m := re.search(rf"\b(?i:relocating|moving|transferring|sending|posting)\s+me\s+to\s+({NAME})", piece)) and place(m.group(1)):
        return [said("residence", m.group(1), f"move to {m.group(1)}")]  # "work is relocating me to Boston next month"
    if (m := re.search(rf"\b(?i:signed|signing)\s+(?:on\s+)?with\s+(?:the\s+)?({NAME})", piece)) and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "Signed with Network Rail."
    if (m := re.search(rf"\b(?i:offer)\s+from\s+(?:the\s+)?({NAME})\s+(?i:came\s+(?:through|thru|in)|accepted|signed)", piece)) \
            and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "offer from DHL came thru"
    if (m := re.search(rf"\b(?:i'm|i\s+am|i've\s+been|been)\s+with\s+({NAME})\b", piece, re.I)) and works(sentence) \
            and org(m.group(1)):
        return [said("employer", m.group(1), f"work at {m.group(1)}")]  # "I'm with Stripe now, started Monday"
    if (m := re.match(rf"^({NAME})\s+(?:made|promoted)\s+me\s+(?:an?\s+|the\s+)?({JOB_HEAD})$", piece)) and org(m.group(1)) \
            and m.group(2).split()[-1] in OCCUPATIONS:
        return [said("employer", m.group(1), f"work at {m.group(1)}"),
                said("occupation", m.group(2), f"work as {m.group(2)}")]  # "Aldi made me assistant manager"
    return []


def job(piece: str, sentence: str) -> list[Said]:
    """What the speaker works as, said with no verb of work ("Head chef now", "took the barista job", "that's
    me retired"); nothing in a piece that only wishes, denies or speaks to "you"."""
    if re.search(r"\b(?:not|no\s+longer|never|would|could|might|if|maybe|hope|wish|want|you)\b", piece, re.I):
        return []
    if (m := re.search(rf"\b(?:took|take|taking|accepted|accept|got|landed|said\s+yes\s+to)\s+(?:the|an?)\s+({JOB_HEAD})\s+"
                       r"(?:training\s+)?(?:offer|job|role|position|post|place|placement|apprenticeship)\b", piece, re.I)) \
            and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [said("occupation", m.group(1), f"work as {m.group(1)}")]  # "I took the physiotherapist training offer"
    if (m := re.fullmatch(rf"(?:(?:i'm|i\s+am|now|a|an|officially|finally|newly|fully|qualified)\s+)*({JOB_HEAD}){NOW}",
                          piece, re.I)) and re.search(r"\b(?:now|at\s+last|officially|as\s+of|from\s+today|qualified|newly)\b",
                                                     piece, re.I) and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [said("occupation", m.group(1), f"be {m.group(1)}")]  # "Head chef now"
    if (m := re.search(rf"\b(?:starting|started|start|working|work|now|month|week|year|months|weeks|years)\s+as\s+an?\s+({JOB_HEAD})"
                       r"(?=\s+(?:done|now|at|in|for|from|on)\b|$)", piece, re.I)) and m.group(1).split()[-1].lower() in OCCUPATIONS \
            and not NOT.search(piece):
        return [said("occupation", m.group(1), f"work as {m.group(1)}")]  # "starting as a junior copywriter at an agency"
    if (m := re.search(rf"\bas\s+an?\s+({JOB_HEAD})\s+(?:this\s+time|now|these\s+days)\b", piece, re.I)) \
            and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [said("occupation", m.group(1), f"work as {m.group(1)}")]  # "back doing numbers, but as a tax adviser this time"
    if (m := re.search(rf"\b(?:shifts?|years?|months?|weeks?|job|work|working|day|days|one)\s+as\s+an?\s+({JOB_HEAD})$", piece, re.I)) \
            and m.group(1).split()[-1].lower() in OCCUPATIONS:
        return [said("occupation", m.group(1), f"work as {m.group(1)}")]  # "Twelve-hour shifts as a paramedic"
    if m := re.search(r"\b(?i:i've\s+been|i'm|i\s+am|been|still)\s+(nursing|teaching|lecturing|tutoring|farming|bartending|freelancing"
                      r"|nannying|waitressing|waitering)\s+(?:for\s+\w+\s+(?:years?|months?)|full[- ]time|part[- ]time|at\b|in\b|now\b|since\b)",
                      piece):
        job = GERUND_JOB[m.group(1).lower()]
        return [said("occupation", job, f"work as a {job}")]  # "I've been nursing for ten years"
    if re.search(r"\b(?i:i|we)\s+(?:still\s+|now\s+)?(?:teach|lecture)\b.*\bat\s+(?:a|the|my)\s+[\w ]*(?:school|college|university|academy)\b",
                 piece):
        return [said("occupation", "teacher", "work as a teacher")]  # "I teach year 6 at a primary school"
    if m := re.search(r"\b(?i:promoted|moved\s+up|stepped\s+up)\s+to\s+(?:be\s+)?(?:an?\s+|the\s+)?([a-z][a-z -]{2,40}?)$", piece):
        return [said("occupation", m.group(1), f"work as {m.group(1)}")]  # "I got promoted to head of sales"
    if (m := re.match(rf"^(?:honestly\s+|tbh\s+)?being\s+an?\s+({JOB_HEAD})\s+(?:on\s+\w+\s+|here\s+|at\s+\w+\s+)?(?:is|has\s+been)\b", piece,
                      re.I)) and m.group(1).split()[-1].lower() in OCCUPATIONS and re.search(
                          r"\b(?:nights|shifts?|hours|patients|customers|clients|pay|paid|rota|boss|manager)\b", sentence, re.I):
        return [said("occupation", m.group(1), f"work as a {m.group(1)}")]  # "being a paramedic on nights is wrecking me"
    if (m := re.search(r"\b(?:left|quit|leaving|quitting|gave\s+up|given\s+up)\s+([a-z]+ing)\b", piece, re.I)) and m.group(1).lower() in GERUND_JOB:
        job = GERUND_JOB[m.group(1).lower()]
        return [said("*", job, f"left {m.group(1).lower()}", ends=True)]  # "I've left teaching"
    if re.match(r"^(?:just\s+|finally\s+|officially\s+|now\s+)*retired\b", piece, re.I):
        return [said("occupation", "retired", "be retired"),
                Said("employer", "", Clause("", "retire", False, "retired"), ends=True)]  # "Just retired after 30 years"
    if m := re.search(r"\b(?:i'm|i\s+am|now|i've\s+gone|gone|went)\s+(?:now\s+|officially\s+)?(self-employed|freelance|a\s+freelancer"
                      r"|unemployed|between\s+jobs|out\s+of\s+work|a\s+stay-at-home\s+(?:mum|mom|dad|parent)|a\s+full-time\s+(?:mum|mom|dad"
                      r"|parent))\b", piece, re.I):
        value = re.sub(r"^an?\s+", "", m.group(1).lower())
        return [said("occupation", value, f"be {value}")]  # "I'm self-employed now"
    if m := re.match(r"^(?:so\s+|well\s+)?that's\s+me\s+(retired|(?:an?\s+)?[a-z]+(?:\s+[a-z]+)?)\b", piece, re.I):
        value = re.sub(r"^an?\s+", "", m.group(1).lower())
        if value == "retired" or value.split()[-1] in OCCUPATIONS:
            out = [said("occupation", value, f"be {value}")]
            return out + ([Said("employer", "", Clause("", "retire", False, "retired"), ends=True)] if value == "retired"
                          else [])
    return []
