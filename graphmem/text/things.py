"""The English words a person's attributes are read with: jobs, instruments, languages, diets, pets,
the words of a frequency and of a number, and the US spellings folded to the UK ones.

Why lists and not a tagger: the attribute rules (:mod:`graphmem.claims.attributes`) need to tell
"a nurse" (a job) from "a good friend", "the cello" (an instrument) from "the game", "French" (a
language) from "Paris". A closed list per attribute says it without a model per write; a word
missing from a list leaves the statement an open-ended ``other:<predicate>`` fact, never a wrong one.
"""

from __future__ import annotations

from graphmem.text.lexicon import ANIMALS, wordset
from graphmem.text.wordnet_things import MUSICAL_INSTRUMENTS, PET_ANIMALS, ROAD_VEHICLES

__all__ = ["ANIMAL_WORDS", "DIETS", "DOING", "FREQUENCY_WORDS", "INSTRUMENTS", "LANGUAGES", "MAKES", "NUMBERS",
           "OCCUPATIONS", "PARTNER_NOUNS", "SUBJECTS_SAID", "VEHICLES", "uk", "singular"]

OCCUPATIONS = wordset("""
    teacher nurse doctor engineer lawyer attorney accountant designer developer programmer writer author artist
    chef cook baker butcher manager student researcher scientist professor lecturer tutor pharmacist
    dentist therapist counselor counsellor worker firefighter officer pilot surgeon physician midwife
    driver mechanic electrician plumber carpenter architect photographer musician singer actor actress
    journalist editor analyst consultant salesperson cashier waiter waitress barista librarian bartender
    veterinarian vet paramedic soldier farmer entrepreneur freelancer intern assistant receptionist
    secretary clerk banker broker trader economist psychologist psychiatrist translator interpreter
    cleaner janitor gardener builder painter sculptor dancer model coach trainer instructor
    principal nanny caregiver carer hairdresser barber stylist tailor fisherman fisher miner welder
    technician scientist biologist chemist physicist mathematician statistician archaeologist
    historian curator realtor agent detective guard ranger sailor captain steward stewardess
    paralegal judge politician diplomat priest pastor rabbi imam minister monk nun
    influencer streamer youtuber blogger podcaster producer director filmmaker animator illustrator
    composer conductor programmer coder tester administrator ceo cto founder owner sommelier
    optometrist radiographer radiologist physiotherapist physio dietitian nutritionist pediatrician
    paediatrician cardiologist neurologist anesthetist anaesthetist postman postwoman courier
    solicitor barrister auditor bookkeeper underwriter actuary surveyor planner recruiter dev devops
    sysadmin marketer copywriter strategist adviser advisor specialist roofer bricklayer plasterer
    locksmith glazier florist fishmonger croupier porter concierge housekeeper lifeguard zookeeper
    groomer trucker chauffeur machinist operator foreman labourer laborer handyman optician
    potter dispatcher ceramicist jeweller jeweler upholsterer joiner electrician tiler decorator seamstress midwife
    sonographer phlebotomist orthodontist podiatrist chiropractor osteopath hygienist paramedic firefighter copywriter
    """)
"""Nouns of a job ("a nurse", "a data analyst", "a social worker"): the head word decides."""

PARTNER_NOUNS = wordset("boyfriend girlfriend husband wife partner fiance fiancee fiancé fiancée spouse bf gf")

INSTRUMENTS = wordset("""
    piano violin viola cello double bass guitar ukulele banjo mandolin harp flute clarinet oboe bassoon
    saxophone sax trumpet trombone tuba horn drums drum keyboard keyboards synth harmonica accordion
    bagpipes organ recorder xylophone marimba tabla sitar bouzouki lute piccolo cornet euphonium
    """) | MUSICAL_INSTRUMENTS
"""Instruments by name: a few the attribute rules name, and what WordNet files under a musical instrument
(:mod:`graphmem.text.wordnet_things`: "oud", "cajon", "glockenspiel")."""

LANGUAGES = wordset("""
    english french spanish german italian portuguese dutch swedish norwegian danish finnish icelandic
    polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian serbian croatian
    arabic hebrew persian farsi hindi urdu bengali punjabi tamil telugu marathi gujarati nepali
    chinese mandarin cantonese japanese korean vietnamese thai indonesian malay tagalog filipino
    swahili amharic yoruba zulu latin welsh irish gaelic catalan basque esperanto sign asl
    """)

DIETS = wordset("""
    vegetarian vegan pescatarian pescetarian keto paleo omnivore carnivore flexitarian gluten-free
    dairy-free lactose-free halal kosher raw
    """)

SUBJECTS_SAID = wordset("""
    nursing midwifery law medicine business accounting marketing music art arts design dentistry pharmacy computing
    plumbing carpentry journalism film photography fashion history maths math mathematics statistics physics
    chemistry biology economics politics philosophy psychology sociology geography geology literature linguistics
    anthropology astronomy neuroscience biochemistry drama theatre nutrition teaching education engineering
    architecture finance veterinary physiotherapy criminology classics theology
    """) | {"graphic design", "veterinary science", "computer science", "data science", "fine art", "fine arts",
           "political science", "mechanical engineering", "civil engineering", "electrical engineering",
           "software engineering", "business administration", "creative writing", "public health", "social work",
           "international relations", "environmental science", "marine biology", "game design", "interior design",
           "veterinary medicine"}
"""Subjects of study as people name them that WordNet's disciplines (:mod:`graphmem.text.wordnet_places`)
miss or file otherwise ("nursing", "maths", "business", "fine art"): one list for the claims' reader and
``ask``'s (a language studied is in :data:`LANGUAGES`)."""

ANIMAL_WORDS = ANIMALS | wordset("""
    guinea chinchilla gerbil mouse mice rat cockatiel budgie canary goldfish axolotl iguana chameleon
    hedgehog alpaca goat chicken chickens duck hen ducks tarantula frog
    """) | PET_ANIMALS
"""Animals kept as pets: the lexicon's, and the dogs, cats, parrots, rodents, lizards, snakes, turtles and
horses WordNet names ("retriever", "labrador", "cockatiel")."""

VEHICLES = wordset("""
    car cars suv truck van minivan pickup motorbike motorcycle scooter jeep hatchback sedan convertible camper
    campervan rv moped
    """) | ROAD_VEHICLES
"""Nouns of a vehicle one drives or rides ("a hatchback", "a moped"), with WordNet's road vehicles."""

MAKES = wordset("""
    alfa audi bmw buick cadillac chevrolet chevy citroen cupra dacia dodge fiat ford honda hyundai jaguar jeep kia
    landrover lexus lincoln lucid mazda merc mercedes mini mitsubishi nissan opel peugeot polestar porsche ram range
    renault rivian seat skoda subaru tesla toyota vauxhall volkswagen volvo vw
    ducati harley kawasaki ktm piaggio suzuki triumph vespa yamaha
    brompton cannondale specialized trek
    astra civic clio corolla corsa fiesta focus golf leaf model octavia polo prius qashqai transit vivaro yaris
    """)
"""Makes of cars, motorbikes and bicycles, and a few models said alone ("my Golf", "the Qashqai"): a name that
is a vehicle wherever said. One list because the clause rules (:mod:`graphmem.claims.attributes`), the typed
reader (:mod:`graphmem.claims.typed`) and ``ask``'s reader (:mod:`graphmem.memory.values`) each kept their own,
and the three had drifted apart by a few names each."""

NUMBERS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"a couple of": "2", "a dozen": "12", "a few": "a few"}
"""A number said in words and the figure it names (a count's value is a figure when it can be)."""

DOING = {"running": "run", "swimming": "swim", "cycling": "cycle", "walking": "walk", "jogging": "jog", "climbing": "climb",
         "hiking": "hike", "rowing": "row", "skating": "skate", "dancing": "dance", "biking": "bike", "lifting": "lift"}
"""An activity said as what one does ("go running") and as the doing ("run every day") is one thing."""

FREQUENCY_WORDS = wordset("once twice thrice daily weekly monthly nightly yearly annually fortnightly every")

_UK = {"color": "colour", "colors": "colours", "flavor": "flavour", "flavors": "flavours", "favorite": "favourite",
       "favorites": "favourites", "neighbor": "neighbour", "neighbors": "neighbours", "theater": "theatre",
       "center": "centre", "humor": "humour", "harbor": "harbour", "program": "programme", "jewelry": "jewellery",
       "mom": "mum", "catalog": "catalogue", "dialog": "dialogue", "pajamas": "pyjamas", "gray": "grey",
       "cozy": "cosy", "honor": "honour", "fave": "favourite", "fav": "favourite", "tire": "tyre",
       "aluminum": "aluminium", "counselor": "counsellor", "traveling": "travelling", "licorice": "liquorice"}


def uk(word: str) -> str:
    """A word in the UK spelling ("color" -> "colour"), so that both spellings name one attribute."""
    return _UK.get(word, word)


_IRREGULAR_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman", "mice": "mouse",
                      "geese": "goose", "teeth": "tooth", "feet": "foot", "kids": "kid"}


def singular(word: str) -> str:
    """A plural noun's singular by its spelling ("puppies" -> "puppy", "boxes" -> "box"): enough to
    name the thing a count or a favourite is of, whichever number it was said in."""
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
