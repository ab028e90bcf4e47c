# ruff: noqa: E501 - prose and HTML templates read best unwrapped
"""Deterministic news prose for the demo sites: headlines, standfirsts, body paragraphs, comments.

Everything is drawn from a seeded :class:`random.Random`, so one seed gives one set of sites.
The text is template-made but varied (slots filled from per-section lexicons) so that article
bodies, teaser snippets, comments and cookie notices all look like running prose: the
extractor has to find the article by structure and text shape, not by vocabulary.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Lexicon", "LEXICONS", "Writer"]

FIRST_NAMES = [
    "Amara",
    "Ben",
    "Carla",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Ines",
    "Jonas",
    "Kemi",
    "Lars",
    "Maya",
    "Nadia",
    "Omar",
    "Priya",
    "Quentin",
    "Rosa",
    "Samir",
    "Tova",
    "Ugo",
    "Vera",
    "Wendell",
    "Ximena",
    "Yusuf",
    "Zofia",
    "Alan",
    "Bea",
    "Cyril",
    "Dana",
]
LAST_NAMES = [
    "Achebe",
    "Brandt",
    "Castillo",
    "Dufresne",
    "Eklund",
    "Fontaine",
    "Gallagher",
    "Haddad",
    "Ivanova",
    "Jansen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quinlan",
    "Rahman",
    "Silva",
    "Tanaka",
    "Umarov",
    "Varga",
    "Whitfield",
    "Yilmaz",
    "Zeller",
    "Abernathy",
    "Brennan",
    "Costa",
    "Delgado",
    "Ferreira",
]
PLACES = (
    "Port Averley",
    "the Eastbank district",
    "Millbrook",
    "the Old Quay",
    "Hollins Cross",
    "the northern suburbs",
    "Saltmarsh",
    "the river valley",
    "Greywater",
    "the city centre",
)
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


@dataclass(frozen=True)
class Lexicon:
    """The words of one news section."""

    section: str
    things: tuple[str, ...]
    actions: tuple[str, ...]
    orgs: tuple[str, ...]
    roles: tuple[str, ...]
    outcomes: tuple[str, ...]


def _t(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split("|"))


LEXICONS: dict[str, Lexicon] = {
    "politics": Lexicon(
        "politics",
        _t(
            "tram extension|housing plan|budget amendment|parking levy|ward boundary review|"
            "library closure programme|harbour redevelopment|school transport contract|rent cap|"
            "public consultation"
        ),
        _t(
            "approve the funding|delay the final vote|publish the full costings|reopen the tender|"
            "hold a second consultation|cap the spending|scrap the proposal|refer the plan to auditors"
        ),
        _t(
            "the city council|the transport committee|the planning board|the regional assembly|"
            "the residents' association|the opposition group|the finance office"
        ),
        _t(
            "council leader|committee chair|opposition spokesperson|ward councillor|city treasurer|"
            "planning officer|campaign organiser"
        ),
        _t(
            "a narrow majority backed the motion|the vote was postponed until autumn|"
            "officials promised a revised timetable|the costs rose by a third|"
            "the plan was sent back for changes|campaigners declared a partial victory"
        ),
    ),
    "business": Lexicon(
        "business",
        _t(
            "shipyard|logistics hub|bakery chain|software start-up|fishing cooperative|"
            "regional airline|textile mill|solar panel plant|port authority|family brewery"
        ),
        _t(
            "cut forty jobs|open a second site|raise fresh capital|renegotiate its lease|"
            "merge with a rival|freeze hiring|expand into export markets|double its output"
        ),
        _t(
            "the chamber of commerce|the port authority|the regional development bank|"
            "the workers' union|the trade association|a group of local investors"
        ),
        _t(
            "chief executive|finance director|union representative|economist|shop owner|"
            "founder|industry analyst"
        ),
        _t(
            "quarterly revenue fell by eight per cent|orders recovered over the summer|"
            "the share price jumped on the news|the deal still needs regulatory approval|"
            "staff were told in a morning meeting|margins were squeezed by energy costs"
        ),
    ),
    "science": Lexicon(
        "science",
        _t(
            "seagrass survey|tidal energy trial|bird migration study|soil sampling project|"
            "telescope upgrade|river pollution monitor|bee population census|coastal erosion model|"
            "groundwater study|glacier archive"
        ),
        _t(
            "publish the first results|extend the survey by a year|share the raw data|"
            "install new sensors|repeat the measurements|recruit volunteer observers|"
            "compare the samples with older records"
        ),
        _t(
            "the university's marine institute|the national weather service|the natural history "
            "museum|a team of field ecologists|the regional water agency|the observatory trust"
        ),
        _t(
            "lead researcher|marine biologist|doctoral student|project coordinator|hydrologist|"
            "senior lecturer|field technician"
        ),
        _t(
            "the numbers were higher than expected|the trend held across all sites|"
            "the findings surprised the team|the data point to a seasonal cycle|"
            "further work is needed to confirm the pattern|the instruments worked through the storm"
        ),
    ),
    "sport": Lexicon(
        "sport",
        _t(
            "rowing regatta|women's football league|harbour swim|cycling grand prix|"
            "junior rugby cup|basketball derby|coastal marathon|cricket final|sailing week|"
            "athletics meeting"
        ),
        _t(
            "sign a new coach|move the final to the main stadium|fine the club|extend the season|"
            "lower ticket prices|rebuild the grandstand|introduce a youth academy"
        ),
        _t(
            "the county federation|the harbour rowing club|the supporters' trust|"
            "the league board|the stadium operator|the local sports council"
        ),
        _t(
            "head coach|team captain|club secretary|race director|goalkeeper|team physio|"
            "league commissioner"
        ),
        _t(
            "the home side won by two points|the result left them third in the table|"
            "the crowd stayed long after the final whistle|the race was decided in a sprint|"
            "the injury list grew again|a late goal changed everything"
        ),
    ),
    "culture": Lexicon(
        "culture",
        _t(
            "jazz festival|maritime museum|community theatre|street art trail|poetry prize|"
            "film archive|folk music series|gallery reopening|book fair|restored cinema"
        ),
        _t(
            "announce the full programme|extend its opening hours|commission a new mural|"
            "digitise the collection|tour the northern towns|cut ticket prices for students|"
            "move to a larger venue"
        ),
        _t(
            "the arts council|the museum trust|the festival board|a group of volunteers|"
            "the heritage foundation|the city's cultural office"
        ),
        _t(
            "artistic director|curator|festival producer|playwright|archivist|"
            "programme manager|volunteer coordinator"
        ),
        _t(
            "tickets sold out within hours|the opening night drew a record crowd|"
            "critics praised the ambition of the programme|the restoration took three years|"
            "sponsors pledged support for two more seasons|the exhibition will travel abroad"
        ),
    ),
}

_BODY_TEMPLATES = (
    "{Org} said on {day} that it would {action}, a decision that affects residents across {place}.",
    "The {thing} has been discussed for {n_years} years, but {outcome} only after {org} intervened.",
    "According to figures seen by this newspaper, {outcome}, and {org} expects further changes before {month}.",
    '{Person}, the {role}, said the {thing} was "the most important question we will face this year".',
    "Critics argue that the {thing} was rushed, pointing out that {org} had not yet agreed to {action}.",
    "Supporters counter that waiting longer would only raise the cost, which already stands at {money}.",
    "In {place}, opinions are divided: some people welcome the {thing}, while others fear it will change the character of the area.",
    "A report published in {month} found that {outcome}, although the authors cautioned that the sample was small.",
    "{Person} told reporters that {org} would {action} if the {thing} did not deliver results by {month}.",
    "The next step is a meeting on {day}, when {org} is expected to {action}.",
    "Officials declined to say whether {org} had been consulted before the announcement.",
    "It is the {ordinal} time in {n_years} years that the {thing} has made headlines in {place}.",
    '"We have listened to everyone who wrote to us," said {person}, {role} at {org}, "and we think this is a fair compromise."',
    "Roughly {count} people attended a public meeting in {place} last week, many of them asking why {org} had not acted sooner.",
    "The original proposal, drawn up in {month} {year}, envisaged a much smaller {thing}.",
    "Since then, {outcome}, and the plans have been redrawn at least twice.",
    "{Person}, who has followed the {thing} from the start, said that {outcome}.",
    "Documents released under freedom of information rules show that {org} considered several alternatives.",
    "One option would have been to {action}, but it was rejected as too expensive.",
    "Neighbouring towns are watching closely, since a similar {thing} is planned for {place2}.",
    "For now, {org} says it will {action} and report back before the end of {month}.",
    "Local businesses in {place} have mixed feelings, with several owners saying they had heard nothing official.",
    "The figures suggest that {outcome}, a trend that has continued for {n_years} years.",
    'Asked about the timetable, {person} said only that {org} was "working as fast as responsibly possible".',
)
_QUOTE_TEMPLATES = (
    '"This is not the end of the story," {person} said. "We will keep asking questions until we get answers."',
    '"Nobody expected it to move this quickly," admitted {person}, the {role}.',
    '"The people of {place} deserve better than another delay," said {person}.',
)
_STANDFIRST_TEMPLATES = (
    "{Org} moves to {action} as {outcome}.",
    "The {thing} faces fresh scrutiny after {outcome}, with {org} under pressure to {action}.",
    "Residents of {place} react as {org} decides to {action}.",
)
_HEADLINE_TEMPLATES = (
    "{Org_short} to {action} on {thing}",
    "{Thing} in {place_short}: {org_short} set to {action}",
    "Why the {thing} matters for {place_short}",
    "{Thing} plan shaken as {outcome_short}",
    "{Person} on the {thing}: 'We cannot wait'",
)
_SUBHEADS = (
    "What happens next",
    "A long history",
    "The cost question",
    "Voices from {place_short}",
    "Reaction",
    "The numbers",
)
_COMMENT_TEMPLATES = (
    "I have lived in {place} for {n_years} years and nobody ever asked us about the {thing}.",
    "Typical. {Org} always finds money for this sort of thing but not for fixing the roads.",
    "Good reporting, thank you. Would be interesting to know what the {thing} will actually cost each household.",
    "Does anyone know whether the meeting on {day} is open to the public?",
    "The article forgets to mention that {outcome}. That changes the picture quite a bit.",
    "Finally some progress. My neighbours and I have been waiting for this since {year}.",
    "I disagree with most of the comments here. The {thing} is exactly what {place} needs and the critics never offer an alternative.",
    "Same story every year, different names.",
    "My daughter works near the {thing} and says the mood among staff is much better than this piece suggests.",
    "Can we please have a follow-up on this in {month}? I suspect the promises will have quietly disappeared by then.",
    "Not sure why this is news. {Org} announced something very similar two years ago and nothing happened.",
    "Well written, but the headline is misleading.",
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_ORDINALS = ("second", "third", "fourth", "fifth")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Writer:
    """Writes one site's prose from a seeded random generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def person(self) -> str:
        return f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(LAST_NAMES)}"

    def _slots(self, lex: Lexicon) -> dict[str, str]:
        r = self.rng
        org = r.choice(lex.orgs)
        thing = r.choice(lex.things)
        person = self.person()
        place = r.choice(PLACES)
        outcome = r.choice(lex.outcomes)
        slots = {
            "org": org,
            "thing": thing,
            "person": person,
            "role": r.choice(lex.roles),
            "action": r.choice(lex.actions),
            "outcome": outcome,
            "place": place,
            "place2": r.choice([p for p in PLACES if p != place]),
            "month": r.choice(MONTHS),
            "day": r.choice(_DAYS),
            "year": str(r.randint(2009, 2022)),
            "n_years": r.choice(("two", "three", "five", "seven", "ten", "twelve")),
            "ordinal": r.choice(_ORDINALS),
            "count": str(r.randrange(40, 900, 10)),
            "money": f"{r.randint(2, 95)}.{r.randint(1, 9)} million",
        }
        slots["Org"] = _cap(org)
        slots["Person"] = person
        slots["Thing"] = _cap(thing)
        slots["org_short"] = org.removeprefix("the ").removeprefix("a ")
        slots["Org_short"] = _cap(slots["org_short"])
        slots["place_short"] = place.removeprefix("the ")
        slots["outcome_short"] = outcome.split(" and ")[0]
        return slots

    def _fill(self, template: str, lex: Lexicon) -> str:
        return template.format(**self._slots(lex))

    def headline(self, lex: Lexicon) -> str:
        return self._fill(self.rng.choice(_HEADLINE_TEMPLATES), lex)

    def standfirst(self, lex: Lexicon) -> str:
        return self._fill(self.rng.choice(_STANDFIRST_TEMPLATES), lex)

    def paragraph(self, lex: Lexicon, sentences: int | None = None) -> str:
        """A paragraph of 2-5 sentences (or ``sentences``), no template used twice."""
        count = sentences or self.rng.randint(2, 5)
        templates = self.rng.sample(_BODY_TEMPLATES, count)
        if self.rng.random() < 0.2:
            templates[-1] = self.rng.choice(_QUOTE_TEMPLATES)
        return " ".join(self._fill(t, lex) for t in templates)

    def short_paragraph(self, lex: Lexicon) -> str:
        """A one-sentence paragraph, as news sites like to print them."""
        return self._fill(self.rng.choice(_BODY_TEMPLATES), lex)

    def subhead(self, lex: Lexicon) -> str:
        return self._fill(self.rng.choice(_SUBHEADS), lex)

    def comment(self, lex: Lexicon) -> str:
        count = self.rng.choice((1, 1, 2, 2, 3, 4))
        return " ".join(self._fill(t, lex) for t in self.rng.sample(_COMMENT_TEMPLATES, count))
