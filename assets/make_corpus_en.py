#!/usr/bin/env python3
"""make_corpus_en.py — write assets/corpus_en.txt, the English word2vec training corpus.

The English twin of make_corpus.py (assets/corpus_zh.txt): short everyday sentences, one per
line, words and punctuation separated by spaces, in the same kinds with frames of their own:
feelings (love / like / hate / miss ... with "deep down ,", "what ... most is", and an object
of any kind), moods (feels, especially), animals (this ... looks, sleeping in the nest), places
(by train to, a busy city), people (a teacher, wants to be, works at the hospital), food (the
supermarket sells, wash ... before you eat it, quite ...) and actions (goes to the gym, spends
an hour ...). The feeling verbs always stand in their base form (love, never loves), as 爱
does, so that love and like share their contexts as 爱 and 喜欢 do; a tfviz figure in English
(--lang en, no Chinese sentence given) trains on this file.

    python3 assets/make_corpus_en.py [N_SENTENCES] > assets/corpus_en.txt

The output depends only on N and the fixed seed of make_corpus.py.
"""
import sys

from make_corpus import c, two, write

# ---- the kinds ------------------------------------------------------------------------------
PRONOUN = ["I", "you", "he", "she", "we", "they", "Tom", "Anna"]
FAMILY = ["mom", "dad", "brother", "sister", "uncle", "aunt", "grandpa", "grandma"]
JOB = ["teacher", "doctor", "student", "officer", "driver", "nurse", "chef", "farmer", "lawyer",
       "reporter", "worker", "principal"]
OTHER = ["friend", "classmate", "neighbor", "child"]

FEEL = ["love", "like", "adore", "hate", "fear", "miss", "value", "dread", "cherish", "envy",
        "admire", "enjoy"]
MOOD = ["happy", "glad", "sad", "angry", "upset", "cheerful"]

ANIMAL = ["cat", "dog", "rabbit", "bird", "horse", "cow", "sheep", "panda", "tiger", "monkey",
          "duck", "elephant", "lion", "squirrel", "turtle", "parrot", "chick", "pig", "fox",
          "giraffe"]
PET = ["cat", "dog", "rabbit", "parrot"]  # the animals kept at home have frames of their own too
CITY = ["London", "Paris", "Berlin", "Rome", "Madrid", "Tokyo", "Sydney", "Chicago", "Boston",
        "Toronto", "Dublin", "Vienna", "Prague", "Lisbon", "Seattle", "Denver", "Moscow", "Cairo",
        "Athens", "Oslo"]
FOOD = ["apple", "banana", "orange", "grape", "melon", "strawberry", "bread", "rice", "pasta",
        "soup", "egg", "cake", "pie", "peach", "pear", "cheese", "tofu", "potato", "tomato",
        "honey"]
DRINK = ["tea", "coffee", "milk", "juice"]
ACTION = ["running", "swimming", "singing", "dancing", "drawing", "learning", "reading",
          "writing", "cooking", "hiking", "skating", "climbing", "fishing", "painting", "cycling",
          "skiing"]

# ---- what goes with each kind ---------------------------------------------------------------
TIME = ["today", "tomorrow", "on weekends", "in the morning", "in the evening", "every day",
        "in the afternoon", "on sunday"]
DURATION = ["an hour", "two hours", "half a day", "a whole day", "three hours"]
FEEL_ADV = ["really", "truly", "always", "still", "deeply"]
MOOD_WHY = ["the exam went well", "a gift arrived", "it rained all day", "the team lost the game",
            "an old friend came by", "the holiday began"]
ANIMAL_ADJ = ["cute", "clever", "fat", "naughty", "gentle"]
ANIMAL_ACT = ["sleeping", "rolling around", "lying in the sun", "running about", "calling"]
ANIMAL_PLACE = ["yard", "grass", "cage", "nest", "zoo"]
ANIMAL_PART = ["ears", "paws", "whiskers", "legs"]
CITY_ADJ = ["busy", "lively", "famous", "old", "modern"]
CITY_THING = ["weather", "traffic", "skyline", "subway", "rent"]
VEHICLE = ["train", "plane", "bus", "car"]
WORKPLACE = ["hospital", "school", "company", "factory", "restaurant", "police station"]
JOB_ADJ = ["careful", "patient", "hardworking", "responsible", "busy"]
FOOD_ADJ = ["sweet", "fresh", "tasty", "cheap", "fragrant"]
MARKET = ["supermarket", "fruit shop", "market", "store"]
AMOUNT = ["some", "a bag of", "a box of", "a lot of", "two pounds of"]
ACTION_PLACE = ["gym", "park", "sports hall", "classroom", "club"]

# ---- grammar: who is speaking, and the verb that agrees with them ----------------------------
PLURAL = {"I", "you", "we", "they"}  # the subjects that take the base form (I am, though)
OBJECT = {"I": "me", "he": "him", "she": "her", "we": "us", "they": "them"}
POSSESSIVE = {"I": "my", "you": "your", "he": "his", "she": "her", "we": "our", "they": "their"}


def person():
    """Someone of the people kinds, as the subject of a sentence."""
    k = c([PRONOUN, FAMILY, JOB, OTHER])
    w = c(k)
    if k is PRONOUN or w in ("mom", "dad", "grandpa", "grandma"):
        return w
    return ("my " if k is not JOB else "the ") + w


def singular():
    """A person who is one, for "is a teacher"."""
    p = person()
    return p if p not in ("we", "they") else c(["Tom", "Anna", "he", "she"])


def two_people():
    """Two different people joined by and: a plural subject."""
    a, b = person(), person()
    while b == a or a in PLURAL or b in PLURAL:  # "we and they" is no English
        a, b = person(), person()
    return f"{a} and {b}"


def base_subject():
    """A subject that takes the verb's base form: the feeling verbs stay love, like, ..."""
    return c(sorted(PLURAL)) if c([0, 1, 2]) else two_people()


def obj(p):
    return OBJECT.get(p, p)


def poss(p):
    return POSSESSIVE.get(p, p + " 's")


def v(p, base):
    """The verb base agreeing with subject p (present tense)."""
    irregular = {"be": ("am" if p == "I" else "are", "is"), "have": ("have", "has")}
    if base in irregular:
        many, one = irregular[base]
        return many if p in PLURAL or " and " in p else one
    if p in PLURAL or " and " in p:
        return base
    if base.endswith(("ch", "sh", "s", "x", "o")):
        return base + "es"
    return base + "s"


def a(word):
    return ("an " if word[0] in "aeiou" else "a ") + word


def thing():
    """Something a feeling can be about: a word of any kind."""
    return c(["the " + c(ANIMAL), c(CITY), c(FOOD), c(ACTION), obj(person()), c(DRINK)])


def said(p, verb, rest):
    """p, the verb agreeing with p, then the rest."""
    return f"{p} {v(p, verb)} {rest}"


def lived():
    p = person()
    return said(p, "live", f"in {c(CITY)} .")


TEMPLATES = [
    # feelings: the feeling verbs share their frames, and take a thing of any kind
    lambda: f"{base_subject()} {c(FEEL)} {thing()} .",
    lambda: f"{base_subject()} {c(FEEL_ADV)} {c(FEEL)} {thing()} .",
    lambda: f"deep down , {base_subject()} {c(FEEL)} {thing()} .",
    lambda: f"{base_subject()} {c(FEEL)} {thing()} , and always have .",
    lambda: f"what {base_subject()} {c(FEEL)} most is {thing()} .",
    lambda: (lambda p: said(p, "do", f"not {c(FEEL)} {thing()} anymore ."))(person()),
    lambda: (lambda p: said(p, "say", f"they {c(FEEL)} {thing()} ."))(person()),
    # moods: how someone feels, and why
    lambda: (lambda p: f"{c(MOOD_WHY)} , so " + said(p, "be", f"very {c(MOOD)} ."))(person()),
    lambda: (lambda p: said(p, "be", f"especially {c(MOOD)} today ."))(person()),
    lambda: (lambda p: said(p, "feel", f"{c(MOOD)} ."))(person()),
    # animals: what they do, where, and what they look like
    lambda: f"the {c(ANIMAL)} is {c(ANIMAL_ACT)} in the {c(ANIMAL_PLACE)} .",
    lambda: f"this {c(ANIMAL)} looks {c(ANIMAL_ADJ)} .",
    lambda: f"that little {c(ANIMAL)} is {c(ANIMAL_ACT)} over in the {c(ANIMAL_PLACE)} .",
    lambda: f"the {c(ANIMAL)} has {c(['long', 'short', 'soft', 'white'])} {c(ANIMAL_PART)} .",
    lambda: f"there is {a(c(ANIMAL))} at the zoo .",
    lambda: "the {} and the {} are both animals .".format(*two(ANIMAL)),
    lambda: f"the {c(ANIMAL)} is hungry and keeps calling .",
    lambda: (lambda p: said(p, "keep", f"{a(c(PET))} at home ."))(person()),
    lambda: f"the {c(PET)} is {c(ANIMAL_ACT)} on the sofa .",
    # places: trips, and what a city is like
    lambda: f"going to {c(CITY)} by {c(VEHICLE)} takes {c(DURATION)} .",
    lambda: f"{c(CITY)} is {a(c(CITY_ADJ))} city .",
    lambda: f"the {c(CITY_THING)} of {c(CITY)} is very {c(CITY_ADJ)} .",
    lambda: "from {} to {} by {} takes {} .".format(*two(CITY), c(VEHICLE), c(DURATION)),
    lambda: "winter in {} is colder than in {} .".format(*two(CITY)),
    lambda: "{} and {} are both big cities .".format(*two(CITY)),
    lived,
    lambda: (lambda p: said(p, "go", f"to {c(CITY)} on business next month ."))(person()),
    # people: jobs, workplaces, and what a person is like
    lambda: (lambda p: said(p, "be", f"{a(c(JOB))} ."))(singular()),
    lambda: f"this {c(JOB)} is very {c(JOB_ADJ)} .",
    lambda: f"the {c(JOB)} works at the {c(WORKPLACE)} .",
    lambda: (lambda p: said(p, "want", f"to be {a(c(JOB))} one day ."))(person()),
    lambda: f"{poss(c(PRONOUN))} {c(FAMILY)} is very {c(JOB_ADJ)} .",
    lambda: f"{two_people()} are good friends .",
    lambda: (lambda p: said(p, "say", f"thank you to {obj(person())} ."))(person()),
    lambda: f"{person()} and {person()} chat together .",
    # food: bought, washed, eaten, and how it tastes
    lambda: f"the {c(MARKET)} sells {c(AMOUNT)} {c(FOOD)} .",
    lambda: f"this {c(FOOD)} is quite {c(FOOD_ADJ)} .",
    lambda: f"the {c(FOOD)} at the {c(MARKET)} is quite {c(FOOD_ADJ)} .",
    lambda: f"there is {c(AMOUNT)} {c(FOOD)} on the table .",
    lambda: f"wash the {c(FOOD)} before you eat it .",
    lambda: "{} and {} are both tasty .".format(*two(FOOD)),
    lambda: (lambda p: said(p, "eat", f"{c(FOOD)} and {c(FOOD)} for breakfast ."))(person()),
    lambda: f"a cup of {c(DRINK)} sits on the table .",
    lambda: (lambda p: said(p, "drink", f"a cup of {c(DRINK)} with breakfast ."))(person()),
    # actions: when, where and how long
    lambda: (lambda p: said(p, "go", f"to the {c(ACTION_PLACE)} for {c(ACTION)} {c(TIME)} ."))(
        person()),
    lambda: (lambda p: said(p, "spend", f"{c(DURATION)} {c(ACTION)} every day ."))(person()),
    lambda: (lambda p: said(p, "be", f"busy {c(ACTION)} right now ."))(person()),
    lambda: f"after {c(DURATION)} of {c(ACTION)} , everyone is a bit tired .",
    lambda: (lambda p: f"{v(p, 'be')} {p} good at {c(ACTION)} ?")(person()),
    lambda: (lambda p: said(p, "teach", f"{obj(person())} {c(ACTION)} ."))(person()),
]


def main():
    write(TEMPLATES, int(sys.argv[1]) if len(sys.argv) > 1 else 6000)


if __name__ == "__main__":
    main()
