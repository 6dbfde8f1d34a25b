#!/usr/bin/python3
"""Make the natural questions of the E and G benches (questions.txt).

questions.txt beside this script is the fixed list the benches ask: 200
questions, one a line, 5 to 8 words each, ending with "?". It is committed
and read as it is; this script only documents how it was made, and
regenerates the same file (seeded; standard library only):

    tests/bench/search/make_questions.py > tests/bench/search/questions.txt

Every word comes from fill_search.py's WORDS (the vocabulary of workload E's
transcripts), or is a plural or past form of one of them that stems to the
same English (Snowball) stem, such as `restored` of `restore` or `invoices`
of `invoice` (INFLECTIONS below), so a question's content words occur in the
filled events at the vocabulary's rates and exercise stemming. The shapes
are ordinary English questions (TEMPLATES): a question word and stop words
around two to four content words, e.g. "When was the database backup
restored?" or "What did the doctor say about the prescription?".
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fill_search import WORDS  # noqa: E402

COUNT = 200
SEED = 2026

# Two families of nouns, work and infrastructure, and everyday life. A
# compound is a qualifier and a head of one family ("database backup",
# "hotel booking"); a thing alone is either.
QUALIFIERS = {
    "tech": """server database container cluster proxy cache queue worker thread service endpoint network
disk memory session login profile dashboard schema index table column pipeline branch""".split(),
    "life": """hotel flight dinner grocery insurance mortgage loan pharmacy travel email shipping payment
calendar savings weather""".split()}
HEADS = {
    "tech": """deploy config backup migration build test coverage review report metric alert incident outage
error timeout latency request response certificate token commit merge version query transaction ticket
lint""".split(),
    "life": """booking reminder schedule budget invoice contract appointment claim payment refund address
password order meeting forecast interest recipe account prescription""".split()}
# The third noun of a three-noun compound ("cluster migration ticket").
TAILS = ["meeting", "report", "ticket", "review", "reminder", "schedule", "deadline"]
PEOPLE = {"tech": ["customer", "user", "worker", "people"],
          "life": ["customer", "doctor", "lawyer", "mother", "father", "children", "people"]}
# Verbs a person does to a thing: (base, past); the past participle is the past.
DO = {"tech": [("deploy", "deployed"), ("restore", "restored"), ("merge", "merged"), ("test", "tested"),
               ("review", "reviewed"), ("approve", "approved"), ("reject", "rejected"), ("release", "released"),
               ("index", "indexed"), ("change", "changed"), ("commit", "committed"), ("query", "queried"),
               ("format", "formatted"), ("estimate", "estimated")],
      "life": [("approve", "approved"), ("reject", "rejected"), ("change", "changed"), ("claim", "claimed"),
               ("order", "ordered"), ("refund", "refunded"), ("schedule", "scheduled"), ("review", "reviewed"),
               ("answer", "answered"), ("estimate", "estimated")]}
# What a thing does by itself.
HAPPEN = ["change", "work", "end", "go", "help"]
# What a person does with an object (after "did").
HANDLE = ["leave", "find", "put", "read", "give", "keep", "see", "take", "show", "write", "use", "change"]
STATE = ["different", "old", "new", "large", "small", "important", "good", "hard", "enough"]
TIME = ["today", "this morning", "last night", "last year", "last time", "every day", "at night",
        "in the morning", "this year", "next year", "next time", "after the meeting"]

# Plural and past forms not in WORDS, each with the WORDS word it stems
# like (Snowball English: `restored` and `restore` are both `restor`).
PLURALS = {noun: noun + "s" for family in ("tech", "life") for noun in QUALIFIERS[family] + HEADS[family]
           if not noun.endswith("s") and noun not in ("shipping", "index", "query", "address", "lint", "coverage")}
PLURALS.update({"index": "indexes", "query": "queries", "address": "addresses"})
INFLECTIONS = {past: base for family in DO.values() for base, past in family}
INFLECTIONS.update({form: noun for noun, form in PLURALS.items()})


def thing(rng, family):
    return rng.choice(QUALIFIERS[family] + HEADS[family])


def compound(rng, family, count=2):
    words = [rng.choice(QUALIFIERS[family]), rng.choice(HEADS[family]), rng.choice(TAILS)]
    return " ".join(words[:count])


def article(noun):
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def some(rng, family):
    """A plural thing, for "how many"."""
    return PLURALS[rng.choice([n for n in HEADS[family] if n in PLURALS])]


# Each takes (rng, family) and returns the question's words, without "?".
TEMPLATES = [
    lambda r, f: "how did the %s %s" % (compound(r, f), r.choice(HAPPEN)),
    lambda r, f: "how did we %s the %s" % (r.choice(DO[f])[0], compound(r, f)),
    lambda r, f: "when was the %s %s" % (compound(r, f), r.choice(DO[f])[1]),
    lambda r, f: "who %s the %s %s" % (r.choice(DO[f])[1], compound(r, f), r.choice(TIME)),
    lambda r, f: "what did the %s say about the %s" % (r.choice(PEOPLE[f]), thing(r, f)),
    lambda r, f: "why was the %s %s %s" % (compound(r, f), r.choice(DO[f])[1], r.choice(TIME)),
    lambda r, f: "where is the %s for the %s" % (compound(r, f), thing(r, f)),
    lambda r, f: "can you %s the %s %s" % (r.choice(DO[f])[0], compound(r, f), r.choice(TIME)),
    lambda r, f: "should we %s the %s after the %s" % (r.choice(DO[f])[0], thing(r, f), thing(r, f)),
    lambda r, f: "how many %s did the %s %s" % (some(r, f), r.choice(PEOPLE[f]), r.choice(DO[f])[0]),
    lambda r, f: "when does the %s %s" % (compound(r, f, 3), r.choice(HAPPEN)),
    lambda r, f: "did the %s %s after the %s" % (compound(r, f), r.choice(HAPPEN), thing(r, f)),
    lambda r, f: "what changed in the %s %s" % (compound(r, f), r.choice(TIME)),
    lambda r, f: "which %s %s the %s" % (r.choice(PEOPLE[f]), r.choice(DO[f])[1], compound(r, f)),
    lambda r, f: "is the %s still %s" % (compound(r, f), r.choice(STATE)),
    lambda r, f: "where did the %s %s the %s" % (r.choice(PEOPLE[f]), r.choice(HANDLE), thing(r, f)),
    lambda r, f: "why does the %s need %s" % (compound(r, f), article(thing(r, f))),
    lambda r, f: "when is the next %s" % compound(r, f, 3),
    lambda r, f: "what is the %s for the %s" % (thing(r, f), compound(r, f)),
    lambda r, f: "who %s the %s about the %s" % (r.choice(["asked", "told"]), r.choice(PEOPLE[f]), thing(r, f)),
]


def known(word):
    return word in WORDS or INFLECTIONS.get(word) in WORDS


def questions():
    vocabulary = set(WORDS)
    bases = [base for family in DO.values() for base, _ in family]
    for group in (*QUALIFIERS.values(), *HEADS.values(), *PEOPLE.values(), TAILS, bases, HANDLE, HAPPEN, STATE):
        missing = [w for w in group if w not in vocabulary]
        assert not missing, "not in WORDS: %s" % missing
    rng = random.Random(SEED)
    made, seen = [], set()
    while len(made) < COUNT:
        family = rng.choice(["tech", "tech", "life"])
        words = rng.choice(TEMPLATES)(rng, family).split()
        content = [INFLECTIONS.get(w, w) for w in words if w not in ("the", "a", "an")]
        if not 5 <= len(words) <= 8 or len(set(content)) < len(content):
            continue
        unknown = [w for w in words if not known(w)]
        assert not unknown, "not in the vocabulary: %s" % unknown
        text = " ".join(words)
        if text not in seen:
            seen.add(text)
            made.append(text[0].upper() + text[1:] + "?")
    return made


def main():
    for line in questions():
        assert re.fullmatch(r"[A-Z][a-z ]+\?", line), line
        print(line)


if __name__ == "__main__":
    main()
