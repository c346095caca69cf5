"""What a sentence says of its speaker across its commas, or with the sentence before it in the same turn: "We
adopted a kitten too, her name is Pepper", "bought me an electric van, a Vivaro-e", "We got a puppy! Her name is
Willow.", "I've met someone. Patricia, from the bowls club." (see :mod:`graphmem.claims.values`).
"""

from __future__ import annotations

import re

from graphmem.claims.attributes import Said, thing
from graphmem.claims.typed import JOB_HEAD, NAME, NOT, OTHERS, org, place, said
from graphmem.text.things import ANIMAL_WORDS, DIETS, INSTRUMENTS, OCCUPATIONS, VEHICLES, singular

__all__ = ["after", "whole"]


def whole(sentence: str) -> list[Said]:
    """Values said across a comma: "We adopted a kitten too, her name is Pepper", "bought me an electric
    van, a Vivaro-e"."""
    out = []
    if (m := re.search(r"\b(?:an?|the|our|my)\s+(?:new\s+|little\s+|rescue\s+)*([a-z]+)\b[^.!?]*?,\s+(?:her|his|its)\s+name"
                       r"\s+is\s+([A-Z][\w'-]+)", sentence)) and singular(m.group(1)) in ANIMAL_WORDS:
        out.append(said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))
    if (m := re.search(r"\b(?:bought|got|picked\s+up|leased|bought\s+me|got\s+me|gave\s+me)\s+(?:an?|the)\s+(?:new\s+|electric\s+"
                       r"|used\s+|little\s+|second-hand\s+|secondhand\s+|hybrid\s+)*([a-z]+),\s+(?:an?\s+|the\s+)?"
                       r"([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)", sentence)) and m.group(1) in VEHICLES and not OTHERS.search(
            sentence[:m.start()]):
        out.append(said("vehicle", m.group(2), f"drive a {m.group(2)}"))
    if (m := re.search(r"\b(?i:our|my)\s+(?:new\s+|little\s+|rescue\s+|baby\s+)*([a-z]+),\s+([A-Z][\w'-]+)", sentence)) \
            and singular(m.group(1)) in ANIMAL_WORDS:
        out.append(said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))  # "our new kitten, Miso!"
    if (m := re.search(r"\bmy\s+([a-z]+)\s+([a-z]{3,})\s+(?:keeps|is|has|was|won't|doesn't|loves|hates|just|got|needs)\b", sentence)) \
            and singular(m.group(1)) == m.group(1) in ANIMAL_WORDS and sentence[:1].islower():
        out.append(said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))  # a chat: "my cat pickle keeps..."
    if m := re.search(r"\b(?i:my\s+)?(?:all-time\s+)?(?i:fav|fave|favourite|favorite)\s+([a-z]+)\s+used\s+to\s+be\s+(.+?),?\s+but\s+(?:now\s+)?"
                      r"(?:it's|it\s+is|its)\s+(?:now\s+)?([^,.!?]+)", sentence):
        attribute = f"favourite:{thing(m.group(1))}"  # "my fav movie used to be titanic but now it's interstellar"
        out += [said(attribute, m.group(2), f"favourite {m.group(1)}: {m.group(2)}"),
                said(attribute, m.group(3), f"favourite {m.group(1)}: {m.group(3)}")]
    if (m := re.search(r"\b([a-z]+)\b[^.!?]*?\b(?:named|called)\s+(?:her|him|it)\s+([A-Z][\w'-]+)", sentence)) \
            and singular(m.group(1)) in ANIMAL_WORDS:
        out.append(said("pet", m.group(2), f"have a {singular(m.group(1))} {m.group(2)}"))  # "Adopted a cat, named her Olive"
    if (m := re.match(rf"^(?i:new|my\s+new)\s+(?i:job|role|gig|position)\s*[:-]+\s*(?:an?\s+)?({JOB_HEAD})(?:\s+at\s+(?:the\s+)?({NAME}))?"
                      r"\s*[.!]*$", sentence, re.I)) and m.group(1).split()[-1].lower() in OCCUPATIONS:
        out.append(said("occupation", m.group(1), f"work as {m.group(1)}"))  # "New job: barista at Blue Bottle."
        out += [said("employer", m.group(2), f"work at {m.group(2)}")] if m.group(2) else []
    if (m := re.search(rf"\b(?i:offer)\s+from\s+(?:the\s+)?({NAME})\s+(?i:accepted|signed)|\b(?i:accepted|took|signed)\s+(?:the|an?|their)\s+"
                       rf"(?:job\s+)?(?i:offer)\s+from\s+(?:the\s+)?({NAME})", sentence)) and org(name := m.group(1) or m.group(2)):
        out.append(said("employer", name, f"work at {name}"))  # "Job offer from Stripe accepted."
    if (m := re.search(rf"\b(?i:relocation|move|moving)\s+to\s+({NAME})\s+(?i:confirmed|done|complete|is\s+official|official|happening"
                       r"|finalised|finalized)", sentence)) and place(m.group(1)):
        out.append(said("residence", m.group(1), f"move to {m.group(1)}"))  # "Relocation to Berlin confirmed."
    if (m := re.match(r"^(?:my\s+)?([a-z]+)\s+(?:lesson|lessons|practice|class|recital|exam|grade\s+\d)\b", sentence, re.I)) \
            and m.group(1).lower() in INSTRUMENTS:
        out.append(said("instrument", m.group(1), f"play the {m.group(1).lower()}"))  # "Cello lesson at 5."
    if (m := re.search(r"\b(?:week|day|month)\s+\w+\s+(?:of|on)\s+([a-z-]+)\b", sentence, re.I)) and m.group(1).lower() in DIETS:
        out.append(said("diet", m.group(1), f"be {m.group(1).lower()}"))  # "Week 3 of keto."
    if m := re.search(r"\bvet(?:'s)?\s+(?:appointment\s+|visit\s+|check(?:-up)?\s+|jabs\s+)?for\s+([A-Z][\w'-]+)", sentence, re.I):
        out.append(said("pet", m.group(1), f"have a pet {m.group(1)}"))  # "Reminder: vet for Biscuit on Tuesday."
    if (m := re.search(rf"\b({NAME}),?\s+here\s+(?:i|we)\s+come\b", sentence)) and place(m.group(1)):
        out.append(said("residence", m.group(1), f"move to {m.group(1)}"))  # "Rotterdam, here we come"
    if (m := re.search(r"\b(?i:my)\s+(?:girlfriend|boyfriend|wife|husband|partner|fianc[eé]e?|gf|bf)\s+([A-Z][a-z'’-]+)\b(?!['’]s)", sentence)) \
            and not NOT.search(sentence):
        out.append(said("partner", m.group(1), f"be with {m.group(1)}"))  # "my girlfriend Ines wants to go camping"
    if m := re.match(r"^(?:(?i:news|update|so|guess\s+what)[:!,]?\s+)?([A-Z][a-z'’-]+)\s+and\s+(?i:i|me)\s+(?:just\s+|finally\s+)?"
                     r"(?:got|are|have\s+got|are\s+getting)\s+(?:married|engaged|hitched)\b", sentence):
        out.append(said("partner", m.group(1), f"married {m.group(1)}"))  # "News: Samir and I got married"
    if m := re.search(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b[^.!?]*?,\s+(?:she|he|they)(?:'s|’s|\s+is|'re|\s+are)\s+(?:still\s+)?my\s+"
                      r"(?:new\s+|all-time\s+)?(?:favou?rite|fave)\s+([a-z]+)", sentence):
        out.append(said(f"favourite:{thing(m.group(2))}", m.group(1), f"favourite {m.group(2)}: {m.group(1)}"))  # "Zadie Smith, she's my favourite author"
    if m := re.search(r"\b(?i:met|seeing|dating)\s+(?i:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))\b[^.!?]*?\b(?:her|his|their)\s+"
                      r"name(?:'s|’s|\s+is)\s+([A-Z][\w'-]+)", sentence):
        out.append(said("partner", m.group(1), f"be with {m.group(1)}"))  # "Met someone - her name's Imani"
    return out


def after(sentence: str, previous: str) -> list[Said]:
    """A name said in the sentence after the one that named its kind: a pet ("We got a puppy! Her name is
    Willow.", "Adopted a rescue greyhound. Called him Dash."), a partner ("I've met someone. Patricia, from the
    bowls club.", "That's Idris. We've been seeing each other since October.")."""
    animal = next((w for w in re.findall(r"[a-z]+", previous.lower()) if singular(w) in ANIMAL_WORDS), None)
    if animal and re.search(r"\b(?:got|adopted|rescued|bought|brought\s+home|have|welcomed|picked\s+up|new)\b", previous, re.I) and (
            m := re.match(r"^(?:(?:his|her|its|their)\s+name(?:'s|’s|\s+is)|(?:we\s+|i\s+)?(?:called|named)\s+(?:him|her|it))\s+"
                          r"([A-Z][\w'-]+)", sentence, re.I)) and m.group(1)[:1].isupper():
        return [said("pet", m.group(1), f"have a {singular(animal)} {m.group(1)}")]
    if re.search(r"\b(?i:met|seeing|dating)\s+(?i:someone|somebody|a\s+(?:guy|girl|man|woman))\b", previous) and not NOT.search(previous) and (
            m := re.match(r"^(?:her|his|their)?\s*(?:name(?:'s|’s|\s+is)\s+)?([A-Z][a-z-]+)\b(?!['’])", sentence)) and m.group(1).lower() not in (
            "i", "we", "it", "she", "he", "they", "the", "but", "and", "so", "that", "this", "there", "then", "now", "well"):
        return [said("partner", m.group(1), f"be with {m.group(1)}")]
    if (m := re.match(r"^(?:she|he|they)(?:'s|’s|\s+is|'re|\s+are)\s+(?:now\s+)?my\s+(?:new\s+)?(?:favou?rite|fave)\s+([a-z]+)", sentence, re.I)) \
            and (names := re.findall(r"(?<=\s)([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)", previous)):
        return [said(f"favourite:{thing(m.group(1))}", names[-1], f"favourite {m.group(1)}: {names[-1]}")]  # "...Ishiguro novels. He's my favourite writer now"
    if (m := re.match(r"^(?:that's|that\s+is|this\s+is)\s+([A-Z][a-z'’-]+)$", previous.strip(" .!?"), re.I)) and re.search(
            r"\b(?:we've|we\s+have|we're|we\s+are)\s+(?:been\s+)?(?:seeing\s+each\s+other|dating|together|a\s+couple)\b", sentence, re.I):
        return [said("partner", m.group(1), f"be with {m.group(1)}")]
    return []
