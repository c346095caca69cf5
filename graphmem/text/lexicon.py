"""English word classes, as closed lists: what the claim reader and the lemmatiser know of words.

The reader decides by membership, never by a tagger: a word is a pronoun, an auxiliary, a
determiner, an interjection or an adjective that opens a remark because it is in one of these
lists. Keeping them in one place keeps the rules (sentences, lemmas, people, replies, claims)
reading the same English; the tables that belong to one rule alone live with that rule.
"""

from __future__ import annotations

from graphmem.text.dates import MONTHS, WEEKDAYS

__all__ = [
    "ADVERBS", "ANIMALS", "BE", "CLOSED", "CONDITIONAL", "DEGREE", "DET", "DO", "FRAGMENT_ADJ", "GREET",
    "HAVE", "HAVE_PREDICATES", "HUMANS", "ING_ADJ", "ING_NOUNS", "INTERJ", "MODAL", "NAMING_VERBS", "NEG",
    "NOT_LY", "NOT_NAMES", "OTHER_POSS", "OTHER_PRON", "OWNERS", "PREP", "PREP_START", "PRONOUNS",
    "PUNCT", "RELATIONS", "SPEAKER_POSS", "SPEAKER_PRON", "SUBORD", "THIRD_PRON", "TIME_ADV",
    "TIME_DET", "TIME_NOUNS", "wordset",
]


def wordset(text: str) -> frozenset[str]:
    """The white-space separated words of ``text``: how every list here is written."""
    return frozenset(text.split())


_CALENDAR = (frozenset(WEEKDAYS) | {d[:3] for d in WEEKDAYS} | wordset("tues thur thurs")
             | frozenset(MONTHS) | {m[:3] for m in MONTHS} | wordset("sept"))
"""The days and months with their short forms, built from the one calendar table (text.dates)
so that a month the dates know is a month the people rule never takes for a name."""

# Words that are never a name, however capitalised (sentence-initial words, days, ...).
NOT_NAMES = _CALENDAR | wordset(
    """a an the i me my we us our you your he she it they them his her its their this that
    these those there here what when where who why how which yes no not yeah yep yup nope ok okay
    oh ah aw aww wow hey hi hello thanks thank congrats sure well so and but or if then also just
    really haha lol omg btw by way great good nice cool awesome amazing love sounds looks
    christmas easter thanksgiving halloween
    mr mrs ms dr god lord mom dad mum ma pa grandma grandpa uncle aunt sir madam
    one two three four five six seven eight nine ten first last next new old big little
    let lets did do does can will would could should might must shall have has had
    is are was were be been am as at by for from in into of on to up with about after before
    all any both each every some many much more most other such only own same than too very
    ca wo sha gonna wanna gotta don didn doesn isn wasn aren weren haven hasn hadn couldn
    wouldn shouldn mustn ain won"""
)

SPEAKER_PRON = wordset("i me we us myself ourselves")
OTHER_PRON = wordset("you ya u yourself yourselves")
SPEAKER_POSS = wordset("my our mine ours")
OTHER_POSS = wordset("your yours")
THIRD_PRON = wordset(
    "he she it they this that these those there here him her them his its their everyone "
    "everybody someone somebody something everything nothing anyone anybody anything"
)

# Auxiliaries, with the stems contractions leave behind ("don't" -> don 't).
BE = wordset("am 'm is 's are 're was were be been being isn wasn aren weren ain")
HAVE = wordset("have 've has had having haven hasn hadn")
DO = wordset("do does did don doesn didn")
MODAL = wordset(
    "will 'll would 'd can ca could should may might must shall wo sha gonna wanna gotta ought "
    "couldn wouldn shouldn mustn"
)
NEG = wordset("not 't never")
ADVERBS = wordset(
    """really also just still always usually often sometimes actually finally recently definitely
    totally absolutely already even ever only probably kinda sorta truly honestly seriously literally
    currently now then soon again too lately once mostly almost nearly basically generally certainly
    surely simply all both each constantly especially gradually slowly quickly def prob totes so
    very quite pretty super maybe perhaps rarely hardly barely mainly personally officially"""
)
NOT_LY = wordset(
    "family only fly reply supply july italy belly bully ally jelly rally holy silly lovely friendly "
    "lonely ugly early daily weekly monthly yearly likely"
)
SUBORD = wordset("since when whenever if because although though while as once until unless after before whereas")
CONDITIONAL = wordset("if unless whether")
PREP_START = wordset("at in on during for from with by through over last next")
INTERJ = wordset(
    """yeah yes yep yup yea ya nope no wow woah whoa oh ooh ah aw aww awww hey hi hello hiya
    well so and but also anyway anyways haha hahaha lol ok okay omg oops hmm hm um uh
    absolutely totally definitely sure true right exactly indeed alright cool great awesome
    man dude gosh geez whew phew yay hooray welp plus besides btw honestly thanks thx ty
    nice sweet fair agreed"""
)
# After these a name is a vocative even without a comma ("Hey Mel", "Thanks Caroline").
GREET = wordset("hey hi hello hiya thanks thank congrats congratulations bye morning evening yo dear wow oh")

DET = wordset(
    """a an the this that these those my your our his her its their some any no every each
    another such what which whose all both half either neither many much more most few several"""
)
PREP = wordset(
    """about above across after against along among around at before behind below beneath beside
    between beyond by down during except for from in inside into like near of off on onto out
    outside over past since through throughout to toward towards under until up upon with within
    without"""
)
PRONOUNS = SPEAKER_PRON | OTHER_PRON | THIRD_PRON | wordset("yourself himself herself itself themselves")
CLOSED = DET | PREP | PRONOUNS | wordset("so very too really quite pretty such as than not and or but")

# Degree adverbs: after them an -ing word is an adjective ("it's so rewarding").
DEGREE = wordset("so very too pretty quite super extremely incredibly")
# -ing words that are adjectives after "be" ("it was amazing").
ING_ADJ = wordset(
    """amazing interesting exciting inspiring rewarding challenging relaxing refreshing fascinating
    boring annoying surprising touching heartwarming encouraging overwhelming satisfying calming
    soothing thrilling motivating uplifting exhausting frustrating disappointing terrifying
    charming stunning breathtaking promising fulfilling humbling amusing astonishing comforting
    confusing convincing daunting depressing devastating embarrassing empowering enlightening
    entertaining freeing grounding healing intimidating inviting nerve-wracking outstanding
    pleasing puzzling reassuring shocking striking tempting thought-provoking tiring
    welcoming worrying eye-opening life-changing mind-blowing awe-inspiring"""
)
# Adjectives that open a subjectless remark: "Glad you enjoyed it", "Sorry to hear that".
FRAGMENT_ADJ = wordset(
    """glad happy sorry great nice cool awesome sad proud thrilled excited good lovely amazing
    wonderful fantastic interesting funny crazy weird tough hard impressive beautiful gorgeous
    fun exciting incredible brilliant perfect sweet bummer shame pity wow congratulations"""
)
# -ing words that are nouns ("I'm doing nothing", "it's a wedding").
ING_NOUNS = wordset(
    """thing something nothing anything everything morning evening wedding building ceiling king
    ring spring string sibling darling pudding during awning clothing"""
)


# Nouns that introduce a person by name: "my friend Jenna", "someone named David".
HUMANS = wordset(
    """friend friends buddy buddies pal pals bestie bff son sons daughter daughters kid kids child
    children baby babies boy girl brother brothers sister sisters sibling siblings mom mum mother
    dad father parent parents grandma grandpa grandmother grandfather grandson granddaughter aunt
    uncle cousin cousins niece nephew husband wife partner spouse fiance fiancee boyfriend
    girlfriend bf gf colleague colleagues coworker coworkers co-worker co-workers boss manager
    mentor teacher coach student neighbor neighbors neighbour neighbours roommate roommates
    classmate classmates teammate teammates client clients therapist doctor someone somebody guy
    man woman lady gentleman veteran veterans resident residents person one-year-old toddler
    newborn twin twins"""
)
# Nouns that introduce an animal by name: "a cat named Bailey", "Oscar, my guinea pig".
ANIMALS = wordset(
    """dog dogs cat cats puppy puppies pup pups kitten kittens kitty pet pets snake snakes turtle
    turtles tortoise hamster hamsters rabbit rabbits bunny bird birds parrot parrots fish horse
    horses pony pig lizard lizards gecko ferret furbaby"""
)
# Nouns that introduce a person or a pet by name: the above, and those said of either ("our new addition, Max").
RELATIONS = HUMANS | ANIMALS | wordset("mate companion sidekick addition")
OWNERS = wordset("my our your his her their the a an this that another")
NAMING_VERBS = wordset("named name call called")
HAVE_PREDICATES = frozenset({"have", "get", "adopt", "own", "buy", "rescue", "welcome", "find"})
"""What a thing's owner does with it: the predicates of owning, for the naming rule."""

# Punctuation tokens: skipped around vocatives and at the edges of a clause and its object.
PUNCT = frozenset(",!.…&*~\"'()[]")
# Time words that open a clause as discourse: "Yesterday, I ...", "Last week I ...".
TIME_ADV = wordset(
    "yesterday today tonight tomorrow recently lately currently nowadays sometimes usually now "
    "earlier later finally eventually luckily thankfully fortunately unfortunately sadly honestly "
    "hopefully personally overall anyway meanwhile"
)
TIME_DET = wordset("last next this every")
TIME_NOUNS = wordset(
    "week weekend month year night morning evening afternoon summer winter spring fall autumn "
    "time day monday tuesday wednesday thursday friday saturday sunday semester season"
)
