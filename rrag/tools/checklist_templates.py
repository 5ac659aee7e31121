# ruff: noqa: E501  (a table of templates: one template's sentences read best on one line each)
"""The checklist's templates: one evidence sentence per template (a passage of several for the passage
capability), claims that contradict it, and faithful controls of the same sentence (synonyms,
reordering, passive voice, a number in words, a range that contains the value, one of two facts
restated). Slots are filled from the small vocabularies
beside each template (the textbook pairs at the end are written out whole); written for this checklist,
never taken from evaluation data.

A slot is a list of choices (strings, or tuples read as `{slot[0]}`) or a function of the random
generator and the values filled so far (returning a string, or a dict read as `{slot[key]}`).
`{Name}` is `{name}` with a capital first letter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

Value = str | tuple[str, ...] | dict[str, str]
# A filler reads the values filled so far, whatever their shape (its own template knows it).
Filler = Callable[[Random, Mapping[str, Any]], Value]
Slot = Sequence[str] | Sequence[tuple[str, ...]] | Filler


@dataclass(frozen=True)
class Template:
    capability: str
    domain: str
    evidence: str
    contradictions: tuple[str, ...]
    faithful: tuple[str, ...]
    slots: dict[str, Slot] = field(default_factory=dict)


TEMPLATES: list[Template] = []


def T(
    capability: str, domain: str, evidence: str, contra: Sequence[str], faithful: Sequence[str], **slots: Slot
) -> None:
    TEMPLATES.append(Template(capability, domain, evidence, tuple(contra), tuple(faithful), dict(slots)))


# --------------------------------------------------------------------------------------------
# Slot helpers

WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
)
ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
MONTHS = "January February March April May June July August September October November December".split()
PEOPLE = ["Ada Brennan", "Tomas Reyes", "Mirela Kovac", "Jonah Whitfield", "Priya Raman", "Elias Vogt"]
CITIES = ["Lyon", "Porto", "Gdansk", "Leeds", "Turin", "Utrecht", "Bergen", "Cork"]


def num(lo: int, hi: int, step: int = 1) -> Callable[[Random, Mapping[str, str]], str]:
    return lambda rng, v: str(rng.randrange(lo, hi + 1, step))


def other(name: str, lo: int, hi: int, step: int = 1) -> Callable[[Random, Mapping[str, str]], str]:
    """A number in lo..hi that is not the value of slot `name`."""
    return lambda rng, v: str(rng.choice([n for n in range(lo, hi + 1, step) if str(n) != v[name]]))


def other_of(name: str, choices: Sequence[str]) -> Callable[[Random, Mapping[str, str]], str]:
    return lambda rng, v: rng.choice([c for c in choices if c != v[name]])


def span(lo: int, hi: int, width: int) -> Callable[[Random, Mapping[str, str]], dict[str, str]]:
    """A range a-b, and a value c well outside it."""

    def fill(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
        a = rng.randint(lo, hi)
        c = rng.choice(
            [n for n in range(max(2, lo - width), hi + 3 * width) if n < a - 2 or n > a + width + 2]
        )
        return {"a": str(a), "b": str(a + width), "c": str(c)}

    return fill


def around(name: str, below: int, above: int) -> Callable[[Random, Mapping[str, str]], dict[str, str]]:
    """A range that contains the value of slot `name`."""
    return lambda rng, v: {"lo": str(int(v[name]) - below), "hi": str(int(v[name]) + above)}


def word(name: str) -> Callable[[Random, Mapping[str, str]], str]:
    return lambda rng, v: WORDS[int(v[name])]


def date(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
    d, m, y = rng.randint(2, 27), rng.randrange(12), rng.randint(1850, 1990)
    m2 = rng.choice([k for k in range(12) if k != m])
    return {
        "d": str(d),
        "month": MONTHS[m],
        "month2": MONTHS[m2],
        "year": str(y),
        "year2": str(y + rng.choice([-11, -3, 2, 9])),
    }


def month_and_year(rng: Random, v: Mapping[str, Value]) -> dict[str, str]:
    """A monthly price and a yearly one a little under twelve months of it."""
    a = rng.randint(8, 60)
    return {"a": str(a), "b": str(a * rng.choice([9, 10, 11]))}


def clock(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
    early = rng.choice(["07:00", "07:30", "08:00", "08:30"])
    late = rng.choice(["09:00", "09:30", "10:00", "11:00"])
    return {"t1": early, "t2": late}


def two_values(lo: int, hi: int, order: int = 0) -> Callable[[Random, Mapping[str, str]], dict[str, str]]:
    """Two different numbers a and b; `order` 1: a < b, -1: a > b (full outweighs empty), 0: either."""

    def fill(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
        a, b = rng.sample(range(lo, hi + 1), 2)
        if order and (a < b) != (order > 0):
            a, b = b, a
        return {"a": str(a), "b": str(b)}

    return fill


def capitalised(values: Mapping[str, Value]) -> dict[str, Value]:
    """`values` plus `Name` for every `name`: its string (or each string of its tuple) capitalised."""

    def cap(v: str) -> str:
        return v[:1].upper() + v[1:]

    out = dict(values)
    for k, v in values.items():
        if isinstance(v, str):
            out[cap(k)] = cap(v)
        elif isinstance(v, tuple):
            out[cap(k)] = tuple(cap(x) for x in v)
    return out


# --------------------------------------------------------------------------------------------
# negation: not, never, no longer, without, cannot, none, neither, does not cover

T("negation", "policies", "The {policy} does not cover {loss}.",
  ["The {policy} covers {loss}.", "{Loss} is covered by the {policy}."],
  ["{Loss} is not covered by the {policy}.", "The {policy} excludes {loss}."],
  policy=["home insurance policy", "travel insurance", "extended warranty", "basic plan"],
  loss=["theft from an unlocked shed", "damage caused by a power surge", "lost luggage on domestic flights",
        "wear and tear on the hinges"])  # fmt: skip
T("negation", "policies", "The {place} does not {v[0]} {who}.",
  ["The {place} {v[1]} {who}."],
  ["{Who} are not {v[2]} at the {place}.", "The {place} does not {v[0]} any {who}."],
  place=["hotel", "campsite", "guest house"], who=["pets", "dogs", "children under 12"],
  v=[("accept", "welcomes", "accepted"), ("allow", "admits", "allowed"), ("permit", "allows", "permitted")])  # fmt: skip
T("negation", "manuals", "The {device} cannot be {act[1]} while it is {state}.",
  ["The {device} can be {act[1]} while it is {state}."],
  ["It is not possible to {act[0]} the {device} while it is {state}.",
   "While it is {state}, the {device} cannot be {act[1]}."],
  device=["vacuum cleaner", "label printer", "air purifier", "coffee grinder"],
  act=[("charge", "charged"), ("open", "opened"), ("clean", "cleaned"), ("move", "moved")],
  state=["switched on", "running", "locked"])  # fmt: skip
T("negation", "prices", "The {shop} no longer offers {service}.",
  ["The {shop} still offers {service}.", "The {shop} offers {service}."],
  ["{Service} is no longer offered by the {shop}.", "The {shop} has stopped offering {service}."],
  shop=["bakery on Mill Street", "garden centre", "print shop", "bike store"],
  service=["free delivery", "gift wrapping", "a repair service", "a student discount"])  # fmt: skip
T("negation", "medicine", "{Drug} is not suitable for {group}.",
  ["{Drug} is suitable for {group}."],
  ["{Drug} is unsuitable for {group}.", "For {group}, {drug} is not suitable."],
  drug=["Dravolin", "Ketrazine syrup", "Norvalex", "Brisoprin"],
  group=["children under six", "pregnant women", "people with kidney disease", "patients over eighty"])  # fmt: skip
T("negation", "recipes", "The {dish} is made without {ingredient}.",
  ["The {dish} is made with {ingredient}.", "The {dish} contains {ingredient}."],
  ["No {ingredient} is used in the {dish}.", "The {dish} contains no {ingredient}."],
  dish=["flatbread", "lentil soup", "tomato sauce", "oat crumble"],
  ingredient=["butter", "sugar", "milk", "garlic"])  # fmt: skip
T("negation", "history", "Neither {a} nor {b} signed the {treaty}.",
  ["{A} signed the {treaty}.", "{B} signed the {treaty}."],
  ["The {treaty} was signed by neither {a} nor {b}.", "{A} did not sign the {treaty}."],
  a=PEOPLE[:3], b=PEOPLE[3:], treaty=["harbour treaty", "trade charter", "border agreement"])  # fmt: skip
T("negation", "history", "{Person} never visited {city}.",
  ["{Person} visited {city}."],
  ["{Person} did not visit {city} at any time.", "At no point did {person} visit {city}."],
  person=PEOPLE, city=CITIES)  # fmt: skip

T("negation", "policies", "Guests may not bring {item} into the {area}.",
  ["Guests may bring {item} into the {area}.", "{Item} may be brought into the {area} by guests."],
  ["{Item} may not be brought into the {area} by guests.", "Guests are not allowed to bring {item} into the {area}."],
  item=["glass bottles", "pets", "folding chairs", "hot drinks"], area=["spa", "reading room", "pool area"])  # fmt: skip
T("negation", "policies", "{Act} is {rule[0]} in the {place}.",
  ["{Act} is {rule[1]} in the {place}.", "{Act} in the {place} is {rule[1]}."],
  ["{Act} is {rule[2]} in the {place}.", "{Act} in the {place} is {rule[0]}."],
  act=["photography", "camping", "cycling", "smoking"], place=["courtyard", "main hall", "east wing"],
  rule=[("permitted", "not allowed", "allowed"), ("allowed", "not permitted", "permitted"),
        ("prohibited", "not forbidden", "not permitted")])  # fmt: skip
T("negation", "policies", "{Thing} is {deny} in the {area}.",
  ["{Thing} is not {deny} in the {area}.", "In the {area}, {thing} is not {deny}."],
  ["In the {area}, {thing} is {deny}.", "{Thing} in the {area} is {deny}."],
  thing=["glass", "fishing", "open fire", "drone flying"], area=["picnic area", "nature reserve", "harbour"],
  deny=["prohibited", "banned", "forbidden"])  # fmt: skip
T("negation", "manuals", "None of the {u[0]} in the {kit} contain {stuff}.",
  ["The {u[0]} in the {kit} contain {stuff}.", "Some of the {u[0]} in the {kit} contain {stuff}."],
  ["No {u[1]} in the {kit} contains {stuff}.", "The {u[0]} in the {kit} contain no {stuff}."],
  u=[("cartridges", "cartridge"), ("refills", "refill"), ("capsules", "capsule")], kit=["starter kit", "travel set"],
  stuff=["alcohol", "latex", "mercury"])  # fmt: skip

# --------------------------------------------------------------------------------------------
# modality: must never vs may, required vs forbidden

T("modality", "policies", "Staff must never share {secret} with {party}.",
  ["Staff may share {secret} with {party}.", "Staff are allowed to share {secret} with {party}."],
  ["{Secret} must never be shared with {party} by staff.", "Staff are never allowed to share {secret} with {party}."],
  secret=["customer passwords", "payroll records", "access codes", "patient files"],
  party=["contractors", "visitors", "suppliers"])  # fmt: skip
T("modality", "medicine", "Patients must not drive for {n} hours after {procedure}.",
  ["Patients may drive straight after {procedure}.", "Patients are allowed to drive after {procedure}."],
  ["After {procedure}, patients must not drive for {n} hours.",
   "Driving is forbidden for {n} hours after {procedure}."],
  n=num(12, 48, 12), procedure=["sedation", "the eye drops", "the anaesthetic", "the infusion"])  # fmt: skip
T("modality", "manuals", "You must disconnect the power before {task}.",
  ["You do not need to disconnect the power before {task}.", "You may leave the power connected while {task}."],
  ["Before {task}, the power must be disconnected.", "The power has to be disconnected before {task}."],
  task=["cleaning the blades", "replacing the fuse", "opening the cover", "changing the filter"])  # fmt: skip
T("modality", "recipes", "The dough must rest for at least {n} minutes.",
  ["The dough does not need to rest.", "The dough can be baked without resting."],
  ["Let the dough rest for no less than {n} minutes.", "The dough has to rest for {n} minutes or more."],
  n=num(20, 60, 10))  # fmt: skip
T("modality", "policies", "Visitors must book a slot before entering the {place}.",
  ["Visitors can enter the {place} without booking a slot.", "Visitors do not have to book a slot before entering the {place}."],
  ["Visitors have to book a slot before they enter the {place}.", "Before entering the {place}, visitors must book a slot."],
  place=["gallery", "crypt", "roof terrace", "reading room"])  # fmt: skip
T("modality", "history", "Under the {year} charter, guild members were required to {duty}.",
  ["Under the {year} charter, guild members were forbidden to {duty}."],
  ["The {year} charter required guild members to {duty}.", "Guild members had to {duty} under the {year} charter."],
  year=num(1400, 1700), duty=["train an apprentice", "pay a yearly fee", "attend the spring assembly"])  # fmt: skip

# --------------------------------------------------------------------------------------------
# counts with any head noun

T("count", "history", "The {place[0]} has {n} {place[1]}.",
  ["The {place[0]} has {m} {place[1]}.", "There are {m} {place[1]} in the {place[0]}."],
  ["There are {n} {place[1]} in the {place[0]}.", "The {place[0]} has {w} {place[1]}."],
  place=[("library", "study rooms"), ("old hospital", "wards"), ("castle", "towers"), ("museum", "galleries"),
         ("hotel", "guest rooms")],
  n=num(4, 15), m=other("n", 3, 40), w=word("n"))  # fmt: skip
T("count", "policies", "Each employee is entitled to {n} days of paid leave a year.",
  ["Each employee is entitled to {m} days of paid leave a year.", "Every employee gets {m} days of paid leave per year."],
  ["Paid leave amounts to {n} days a year for each employee.", "Every employee gets {n} days of paid leave per year."],
  n=num(20, 32), m=other("n", 14, 40))  # fmt: skip
T("count", "manuals", "The package contains {n} {part}.",
  ["The package contains {m} {part}.", "There are {m} {part} in the package."],
  ["There are {n} {part} in the package.", "The package includes {w} {part}."],
  part=["wall plugs", "shelf pins", "hex screws", "cable ties"], n=num(4, 14), m=other("n", 2, 24), w=word("n"))  # fmt: skip
T("count", "recipes", "This recipe makes {n} {item}.",
  ["This recipe makes {m} {item}.", "You get {m} {item} from this recipe."],
  ["You get {n} {item} from this recipe.", "The recipe yields {n} {item}."],
  item=["scones", "pancakes", "dumplings", "flapjacks"], n=num(6, 30), m=other("n", 6, 40))  # fmt: skip
T("count", "history", "{W} of the {crew} were rescued by the lifeboat.",
  ["{Mw} {crew} were rescued by the lifeboat.", "The lifeboat rescued {m} of the {crew}."],
  ["The lifeboat rescued {n} of the {crew}.", "{W} {crew} were rescued by the lifeboat."],
  crew=["fishermen", "passengers", "climbers", "deckhands"], n=num(3, 9), m=other("n", 2, 12), w=word("n"), mw=word("m"))  # fmt: skip
T("count", "medicine", "Each pack of {drug} contains {n} tablets.",
  ["Each pack of {drug} contains {m} tablets.", "A pack of {drug} holds {m} tablets."],
  ["There are {n} tablets in each pack of {drug}.", "A pack of {drug} holds {n} tablets."],
  drug=["Dravolin", "Norvalex", "Brisoprin"], n=num(14, 56, 7), m=other("n", 10, 60))  # fmt: skip

# --------------------------------------------------------------------------------------------
# temperatures in °C and °F

T("temperature", "recipes", "Preheat the oven to {t}°C.",
  ["Preheat the oven to {u}°C.", "Heat the oven to {u} °C."],
  ["The oven should be preheated to {t} °C.", "Heat the oven to {t} degrees Celsius before baking."],
  t=num(160, 240, 10), u=other("t", 140, 260, 10))  # fmt: skip
T("temperature", "recipes", "Bake the {item} at {t}°F for {n} minutes.",
  ["Bake the {item} at {u}°F for {n} minutes.", "The {item} bakes for {n} minutes at {u} degrees Fahrenheit."],
  ["The {item} bakes for {n} minutes at {t}°F.", "Bake the {item} for {n} minutes at {t} degrees Fahrenheit."],
  item=["bread", "muffins", "pie", "cookies"], t=num(325, 450, 25), u=other("t", 300, 475, 25), n=num(15, 45, 5))  # fmt: skip
T("temperature", "medicine", "Store {drug} between {a} °C and {b} °C.",
  ["Store {drug} at {c} °C.", "{Drug} should be kept at {c}°C."],
  ["{Drug} should be kept at a temperature of {a}-{b} °C.", "Keep {drug} between {a}°C and {b}°C."],
  drug=["the vaccine", "the insulin pens", "the eye drops"], a=num(2, 4), b=["8"], c=num(15, 30))  # fmt: skip
T("temperature", "manuals", "The water heater is set to {t}°C at the factory.",
  ["The water heater is set to {u}°C at the factory.", "The factory setting of the water heater is {u} °C."],
  ["At the factory, the water heater is set to {t} °C.", "The factory setting of the water heater is {t} degrees Celsius."],
  t=num(50, 65, 5), u=other("t", 35, 80, 5))  # fmt: skip
T("temperature", "history", "On {date[d]} {date[month]} {date[year]}, the temperature in {city} reached {t}°F.",
  ["On {date[d]} {date[month]} {date[year]}, the temperature in {city} reached {u}°F.",
   "The temperature in {city} reached {u} °F on {date[d]} {date[month]} {date[year]}."],
  ["The temperature in {city} reached {t} °F on {date[d]} {date[month]} {date[year]}."],
  date=date, city=CITIES, t=num(90, 110), u=other("t", 70, 115))  # fmt: skip

# --------------------------------------------------------------------------------------------
# the same number in another unit of the same measure, and the same amount in another unit


def grams(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
    kg = rng.choice(["1.2", "1.5", "2.4", "3.6"])
    return {"kg": kg, "g": f"{round(float(kg) * 1000):,}"}


T("unit", "manuals", "The {device} weighs {w[kg]} kg.",
  ["The {device} weighs {w[kg]} grams.", "The {device} has a weight of {w[kg]} tonnes."],
  ["The {device} weighs {w[g]} grams.", "The {device} has a weight of {w[kg]} kilograms."],
  device=["laptop", "drill", "tent", "kettle"], w=grams)  # fmt: skip
T("unit", "history", "The {tower} is {n} metres tall.",
  ["The {tower} is {n} feet tall.", "The {tower} rises {n} feet above the square."],
  ["The {tower} is {n} m tall.", "The {tower} has a height of {n} metres."],
  tower=["clock tower", "lighthouse", "cathedral spire"], n=num(40, 120, 5))  # fmt: skip
T("unit", "timetables", "The speed limit on the {road} is {n} km/h.",
  ["The speed limit on the {road} is {n} mph.", "On the {road}, drivers may do {n} miles per hour."],
  ["On the {road}, the speed limit is {n} km/h.", "The {road} has a speed limit of {n} kilometres per hour."],
  road=["bridge", "ring road", "coast road"], n=num(30, 90, 10))  # fmt: skip
T("unit", "prices", "The {parcel} weighs {n} pounds.",
  ["The {parcel} weighs {n} kilograms.", "The {parcel} weighs {n} kg."],
  ["The {parcel} weighs {n} lb.", "The {parcel} has a weight of {n} pounds."],
  parcel=["parcel", "suitcase", "crate"], n=num(3, 40))  # fmt: skip
T("unit", "recipes", "Add {n} ml of {liquid} to the {dish}.",
  ["Add {n} litres of {liquid} to the {dish}.", "The {dish} needs {n} litres of {liquid}."],
  ["Add {n} millilitres of {liquid} to the {dish}.", "The {dish} needs {n} ml of {liquid}."],
  liquid=["milk", "stock", "cream"], dish=["sauce", "soup", "batter"], n=num(100, 400, 50))  # fmt: skip

# --------------------------------------------------------------------------------------------
# frequencies

T("frequency", "manuals", "The backup job runs every {n} hours.",
  ["The backup job runs every {m} hours.", "A backup is taken every {m} hours."],
  ["A backup is taken every {n} hours.", "Every {n} hours, the backup job runs."],
  n=num(2, 12), m=other("n", 1, 24))  # fmt: skip
T("frequency", "medicine", "Take one tablet every {n} hours.",
  ["Take one tablet every {m} hours.", "One tablet should be taken every {m} hours."],
  ["One tablet should be taken every {n} hours.", "Every {n} hours, take a single tablet."],
  n=num(4, 12, 2), m=other("n", 2, 24, 2))  # fmt: skip
T("frequency", "medicine", "Apply the cream {k} a day.",
  ["Apply the cream {j} a day.", "The cream should be applied {j} daily."],
  ["The cream should be applied {k} daily.", "Use the cream {k} each day."],
  k=["once", "twice", "three times", "four times"], j=other_of("k", ["once", "twice", "three times", "four times"]))  # fmt: skip
T("frequency", "policies", "Fire drills are held every {n} months.",
  ["Fire drills are held every {m} months.", "A fire drill takes place every {m} months."],
  ["Every {n} months a fire drill is held.", "A fire drill takes place every {n} months."],
  n=num(2, 6), m=other("n", 1, 12))  # fmt: skip
T("frequency", "policies", "Staff are entitled to {n} days of {leave} per year.",
  ["Staff are entitled to {n} days of {leave} per month.", "Each week, staff are entitled to {n} days of {leave}."],
  ["Staff are entitled to {n} days of {leave} a year.", "Each year, staff are entitled to {n} days of {leave}."],
  n=num(5, 30), leave=["paid sick leave", "study leave", "volunteering leave"])  # fmt: skip
T("frequency", "manuals", "The pump moves {n} litres of water per minute.",
  ["The pump moves {n} litres of water per hour.", "The pump moves {n} litres of water a day."],
  ["The pump moves {n} litres of water a minute.", "Every minute, the pump moves {n} litres of water."],
  n=num(10, 90, 5))  # fmt: skip
T("frequency", "recipes", "Stir the {dish} every {n} minutes.",
  ["Stir the {dish} every {m} minutes.", "Give the {dish} a stir every {m} minutes."],
  ["Give the {dish} a stir every {n} minutes.", "Every {n} minutes, stir the {dish}."],
  dish=["risotto", "porridge", "custard", "jam"], n=num(2, 10), m=other("n", 1, 20))  # fmt: skip
T("frequency", "manuals", "The shuttle to the {stop} leaves every {n} minutes.",
  ["The shuttle to the {stop} leaves every hour.", "Every hour, a shuttle leaves for the {stop}."],
  ["Every {n} minutes, a shuttle leaves for the {stop}.", "A shuttle to the {stop} leaves every {n} minutes."],
  stop=["airport", "harbour", "old town"], n=["10", "15", "20", "30"])  # fmt: skip

# --------------------------------------------------------------------------------------------
# ordinals and references

T("reference", "policies", "Refunds are explained in Section {n} of the {doc}.",
  ["Refunds are explained in Section {m} of the {doc}.", "Section {m} of the {doc} explains refunds."],
  ["Section {n} of the {doc} explains refunds.", "The {doc} explains refunds in Section {n}."],
  doc=["terms of service", "tenancy agreement", "staff handbook"], n=num(2, 14), m=other("n", 1, 20))  # fmt: skip
T("reference", "manuals", "Step {n} shows how to {task}.",
  ["Step {m} shows how to {task}.", "How to {task} is shown in step {m}."],
  ["How to {task} is shown in step {n}.", "You can see how to {task} in step {n}."],
  task=["reset the router", "pair the remote", "descale the kettle", "level the shelves"],
  n=num(2, 9), m=other("n", 1, 12))  # fmt: skip
T("reference", "medicine", "The {dept} is on the {o} floor.",
  ["The {dept} is on the {p} floor.", "You will find the {dept} on the {p} floor."],
  ["You will find the {dept} on the {o} floor.", "The {o} floor is where the {dept} is."],
  dept=["pharmacy", "blood test clinic", "maternity ward", "X-ray unit"], o=ORDINALS[:6], p=other_of("o", ORDINALS[:6]))  # fmt: skip
T("reference", "history", "{Person} was the {o} president of the {society}.",
  ["{Person} was the {p} president of the {society}.", "The {p} president of the {society} was {person}."],
  ["The {o} president of the {society} was {person}."],
  person=PEOPLE, o=ORDINALS, p=other_of("o", ORDINALS),
  society=["Royal Botanical Society", "city rowing club", "miners' union"])  # fmt: skip
T("reference", "recipes", "The recipe for the {item} is on page {n}.",
  ["The recipe for the {item} is on page {m}.", "Page {m} has the recipe for the {item}."],
  ["Page {n} has the recipe for the {item}.", "On page {n} you will find the recipe for the {item}."],
  item=["lemon glaze", "pie crust", "onion chutney"], n=num(12, 240), m=other("n", 10, 260))  # fmt: skip

# --------------------------------------------------------------------------------------------
# ranges and durations

T("range", "recipes", "Simmer the {sauce} for {r[a]}-{r[b]} minutes.",
  ["Simmer the {sauce} for {r[c]} minutes.", "Let the {sauce} simmer for {r[c]} minutes."],
  ["Simmer the {sauce} for {r[a]} to {r[b]} minutes.", "Let the {sauce} simmer for between {r[a]} and {r[b]} minutes."],
  sauce=["sauce", "stock", "soup", "chutney"], r=span(10, 20, 5))  # fmt: skip
T("range", "recipes", "Rest the {meat} for {d[0]} before carving.",
  ["Rest the {meat} for {d[2]} before carving.", "Before carving, let the {meat} rest for {d[2]}."],
  ["Rest the {meat} for {d[1]} before carving.", "Before carving, let the {meat} rest for {d[0]}."],
  meat=["roast chicken", "leg of lamb", "turkey", "beef joint"],
  d=[("30 minutes", "half an hour", "10 minutes"), ("60 minutes", "an hour", "20 minutes"),
     ("15 minutes", "a quarter of an hour", "45 minutes"), ("90 minutes", "an hour and a half", "3 hours")])  # fmt: skip
T("range", "medicine", "The consultation lasts {n} minutes.",
  ["The consultation lasts {m} minutes.", "A consultation takes {m} minutes."],
  ["The consultation lasts between {w[lo]} and {w[hi]} minutes.", "The consultation lasts {w[lo]}-{w[hi]} minutes."],
  n=num(15, 45, 5), m=other("n", 5, 90, 5), w=around("n", 5, 10))  # fmt: skip
T("range", "manuals", "A full charge takes {r[a]}-{r[b]} hours.",
  ["A full charge takes {r[c]} hours.", "Charging the battery fully takes {r[c]} hours."],
  ["Charging the battery fully takes {r[a]} to {r[b]} hours.", "It takes between {r[a]} and {r[b]} hours to charge fully."],
  r=span(2, 5, 2))  # fmt: skip
T("range", "policies", "Orders are delivered in {r[a]}-{r[b]} working days.",
  ["Orders are delivered in {r[c]} working days.", "Delivery takes {r[c]} working days."],
  ["Delivery takes {r[a]} to {r[b]} working days.", "Orders arrive within {r[a]}-{r[b]} working days."],
  r=span(2, 5, 3))  # fmt: skip
# ... and hours of the day, which are no rough amount: another end of the span is another span
T("range", "timetables", "The {office} is open from {t[0]} to {t[1]}.",
  ["The {office} is open from {t[0]} to {t[2]}.", "The {office} is open between {t[0]} and {t[2]}."],
  ["The {office} is open between {t[0]} and {t[1]}.", "The {office} closes at {t[1]}."],
  office=["ticket office", "library", "pharmacy"],
  t=[("9 am", "5 pm", "9 pm"), ("8:00", "18:00", "20:00"), ("10 am", "4 pm", "6 pm")])  # fmt: skip

# --------------------------------------------------------------------------------------------
# bounds: the same amount as the other bound ("under 18" for "at least 18")

T("bound", "policies", "Applicants must be at least {n} years old.",
  ["Applicants under {n} years old are accepted.", "Applicants must be under {n} years old."],
  ["Applicants must be {n} years old or older.", "Applicants must be no younger than {n} years old."],
  n=["16", "18", "21", "25"])  # fmt: skip
T("bound", "policies", "Cabin bags may weigh up to {n} kg.",
  ["Cabin bags must weigh at least {n} kg.", "Cabin bags may weigh more than {n} kg."],
  ["Cabin bags may weigh no more than {n} kg.", "A cabin bag may weigh {n} kg at most."],
  n=num(7, 12))  # fmt: skip
T("bound", "manuals", "On a full charge the {device} runs for more than {n} hours.",
  ["On a full charge the {device} runs for less than {n} hours.", "On a full charge the {device} runs for at most {n} hours."],
  ["On a full charge the {device} runs for over {n} hours.", "The {device} runs for more than {n} hours on a full charge."],
  device=["drill", "speaker", "lantern", "vacuum cleaner"], n=num(3, 12))  # fmt: skip
T("bound", "medicine", "Do not take more than {n} tablets in 24 hours.",
  ["You may take at least {n} tablets in 24 hours.", "Take more than {n} tablets in 24 hours."],
  ["Take no more than {n} tablets in 24 hours.", "Take at most {n} tablets in 24 hours."],
  n=["four", "six", "eight"])  # fmt: skip
T("bound", "prices", "Delivery is free on orders over £{n}.",
  ["Delivery is free on orders under £{n}.", "Delivery is free on orders of less than £{n}."],
  ["Orders over £{n} are delivered free.", "Delivery is free on orders of more than £{n}."],
  n=num(20, 80, 10))  # fmt: skip
T("bound", "recipes", "Bake the {bread} for at least {n} minutes.",
  ["Bake the {bread} for at most {n} minutes.", "Bake the {bread} for less than {n} minutes."],
  ["Bake the {bread} for {n} minutes or more.", "The {bread} should bake for at least {n} minutes."],
  bread=["sourdough loaf", "rye bread", "focaccia"], n=num(25, 50, 5))  # fmt: skip

# --------------------------------------------------------------------------------------------
# percentages

T("percentage", "prices", "Members get a {p}% discount on {item}.",
  ["Members get a {q}% discount on {item}.", "A {q}% discount on {item} is given to members."],
  ["A {p}% discount on {item} is given to members.", "Members receive {p} per cent off {item}."],
  item=["concert tickets", "guided tours", "spare parts", "annual passes"], p=num(5, 40, 5), q=other("p", 5, 60, 5))  # fmt: skip
T("percentage", "history", "In {year}, {p}% of the town's workers were employed in the {industry}.",
  ["In {year}, {q}% of the town's workers were employed in the {industry}.",
   "The {industry} employed {q} per cent of the town's workers in {year}."],
  ["The {industry} employed {p} per cent of the town's workers in {year}."],
  year=num(1850, 1950), p=num(12, 70), q=other("p", 5, 90), industry=["mills", "shipyards", "coal mines", "potteries"])  # fmt: skip
T("percentage", "medicine", "In the trial, the vaccine was {p}% effective against {disease}.",
  ["In the trial, the vaccine was {q}% effective against {disease}.",
   "The vaccine showed {q}% effectiveness against {disease} in the trial."],
  ["The vaccine showed {p}% effectiveness against {disease} in the trial."],
  disease=["severe illness", "infection", "hospital admission"], p=num(55, 95), q=other("p", 30, 99))  # fmt: skip
T("percentage", "policies", "Late payments incur a fee of {p}% of the amount due.",
  ["Late payments incur a fee of {q}% of the amount due.", "A fee of {q} % of the amount due is charged on late payments."],
  ["A fee of {p} % of the amount due is charged on late payments."],
  p=num(2, 10), q=other("p", 1, 25))  # fmt: skip
T("percentage", "recipes", "The {choc} contains {p}% cocoa solids.",
  ["The {choc} contains {q}% cocoa solids.", "The {choc} has a cocoa solids content of {q}%."],
  ["The {choc} has a cocoa solids content of {p}%.", "Cocoa solids make up {p} percent of the {choc}."],
  choc=["dark chocolate", "baking chocolate", "chocolate coating"], p=num(50, 85, 5), q=other("p", 20, 99, 5))  # fmt: skip

# --------------------------------------------------------------------------------------------
# dates

T("date", "policies", "The {venue} is closed from {m[0]} to {m[1]}.",
  ["The {venue} is closed in {m[3]}.", "The {venue} is closed from {m[0]} to {m[3]}."],
  ["The {venue} is closed in {m[2]}.", "From {m[0]} to {m[1]}, the {venue} is closed."],
  venue=["campsite", "ice rink", "ferry terminal"],
  m=[("December", "March", "January", "July"), ("June", "August", "July", "October"),
     ("November", "February", "December", "May")])  # fmt: skip
T("date", "history", "The {bridge} opened on {dt[d]} {dt[month]} {dt[year]}.",
  ["The {bridge} opened on {dt[d]} {dt[month2]} {dt[year]}.", "The {bridge} opened on {dt[d]} {dt[month]} {dt[year2]}."],
  ["On {dt[d]} {dt[month]} {dt[year]}, the {bridge} opened.", "The {bridge} was opened on {dt[month]} {dt[d]}, {dt[year]}."],
  bridge=["swing bridge", "railway station", "public baths", "covered market"], dt=date)  # fmt: skip
T("date", "history", "{Person} founded the {org} in {dt[year]}.",
  ["{Person} founded the {org} in {dt[year2]}.", "The {org} was founded by {person} in {dt[year2]}."],
  ["The {org} was founded by {person} in {dt[year]}.", "In {dt[year]}, {person} founded the {org}."],
  person=PEOPLE, org=["choral society", "village school", "printing works", "lifeboat station"], dt=date)  # fmt: skip
T("date", "policies", "The new {rule} takes effect on {dt[d]} {dt[month]} 2027.",
  ["The new {rule} takes effect on {dt[d]} {dt[month2]} 2027.", "From {dt[d]} {dt[month2]} 2027, the new {rule} applies."],
  ["From {dt[d]} {dt[month]} 2027, the new {rule} applies.", "The new {rule} comes into force on {dt[d]} {dt[month]} 2027."],
  rule=["parking policy", "expenses policy", "visitor policy", "remote work policy"], dt=date)  # fmt: skip
T("date", "prices", "The loyalty offer ends on {dt[d]} {dt[month]}.",
  ["The loyalty offer ends on {dt[d]} {dt[month2]}.", "{dt[d]} {dt[month2]} is the last day of the loyalty offer."],
  ["{dt[d]} {dt[month]} is the last day of the loyalty offer."],
  dt=date)  # fmt: skip
T("date", "medicine", "The {study} ran from {dt[month]} {dt[year]} until {dt[month2]} {y}.",
  ["The {study} ran from {dt[month2]} {dt[year]} until {dt[month2]} {y}."],
  ["The {study} started in {dt[month]} {dt[year]}."],
  study=["asthma study", "sleep trial", "dental survey"], dt=date, y=lambda rng, v: str(int(v["dt"]["year"]) + 2))  # fmt: skip

# --------------------------------------------------------------------------------------------
# money in table rows read as sentences

SERVICES = [
    "Deep clean",
    "Window cleaning",
    "Oven clean",
    "Carpet shampoo",
    "End of tenancy clean",
    "Gutter clearing",
]
T("money_table", "prices", "For {s}, the price (GBP) is {p}.",
  ["For {s}, the price (GBP) is {q}.", "{S} costs £{q}."],
  ["{S} costs £{p}.", "The price of {s} is {p} GBP."],
  s=SERVICES, p=num(20, 180, 5), q=other("p", 15, 250, 5))  # fmt: skip
T("money_table", "prices", "For {s}, the price (GBP) is {v[a]}. For {t}, the price (GBP) is {v[b]}.",
  ["{S} costs £{v[b]}.", "{T} costs £{v[a]}."],
  ["{T} costs £{v[b]}.", "{S} is priced at £{v[a]}."],
  s=SERVICES[:3], t=SERVICES[3:], v=two_values(20, 150))  # fmt: skip
T("money_table", "prices", "For the {plan} plan, the monthly fee (EUR) is {p}.",
  ["The {plan} plan costs €{q} per month."],
  ["The {plan} plan costs €{p} a month.", "The monthly fee for the {plan} plan is {p} euros."],
  plan=["Basic", "Family", "Premium", "Student"], p=num(5, 60), q=other("p", 3, 90))  # fmt: skip
T("money_table", "medicine", "For {drug} 20 mg, the cost per pack (USD) is {p}.",
  ["For {drug} 20 mg, the cost per pack (USD) is {q}.", "A pack of {drug} 20 mg costs ${q}."],
  ["A pack of {drug} 20 mg costs ${p}.", "{Drug} 20 mg costs {p} US dollars per pack."],
  drug=["Dravolin", "Norvalex", "Brisoprin", "Ketrazine"], p=num(8, 95), q=other("p", 5, 120))  # fmt: skip
T("money_table", "history", "For {year}, the ticket price (USD) is {p}.",
  ["In {year}, a ticket cost ${q}."],
  ["In {year}, a ticket cost ${p}.", "The ticket price in {year} was {p} dollars."],
  year=num(1920, 1990), p=num(2, 40), q=other("p", 1, 60))  # fmt: skip

# --------------------------------------------------------------------------------------------
# antonyms: rose/fell, increase/decrease, before/after, minimum/maximum, inside/outside

MOVES = [("rose", "fell", "went up"), ("fell", "rose", "went down"), ("increased", "decreased", "went up"),
         ("decreased", "increased", "dropped")]  # fmt: skip
T("antonym", "prices", "{What} {mv[0]} by {p}% in {month}.",
  ["{What} {mv[1]} by {p}% in {month}.", "In {month}, {what} {mv[1]} by {p}%."],
  ["In {month}, {what} {mv[0]} by {p}%.", "{What} {mv[2]} by {p} per cent in {month}."],
  what=["prices", "rents", "energy bills", "bus fares"], mv=MOVES, p=num(2, 12), month=MONTHS)  # fmt: skip
T("antonym", "medicine", "The {who} {condition} {v[0]} after the {treatment}.",
  ["The {who} {condition} {v[1]} after the {treatment}.", "After the {treatment}, the {who} {condition} {v[1]}."],
  ["After the {treatment}, the {who} {condition} {v[0]}."],
  who=["patient's", "child's"], condition=["breathing", "condition", "sleep"], treatment=["first dose", "operation"],
  v=[("improved", "worsened"), ("worsened", "improved")])  # fmt: skip
T("antonym", "prices", "The {fee} is waived for {who}.",
  ["{Who} must pay the {fee}.", "The {fee} is charged to {who}."],
  ["{Who} do not pay the {fee}.", "For {who}, the {fee} is waived."],
  fee=["booking fee", "entry fee", "delivery fee"], who=["students", "members", "pensioners"])  # fmt: skip
T("antonym", "history", "The {bill} was {v[0]} by the {house} in {year}.",
  ["The {bill} was {v[1]} by the {house} in {year}.", "In {year}, the {house} {v[1]} the {bill}."],
  ["In {year}, the {house} {v[0]} the {bill}.", "The {house} {v[0]} the {bill} in {year}."],
  bill=["reform bill", "budget bill", "housing act"], house=["Senate", "parliament", "assembly"],
  v=[("passed", "rejected"), ("rejected", "passed")], year=num(1950, 2020))  # fmt: skip
T("antonym", "prices", "The {loan} has a {r[0]} interest rate of {p}%.",
  ["The {loan} has a {r[1]} interest rate of {p}%.", "A {r[1]} rate of {p}% applies to the {loan}."],
  ["A {r[0]} rate of {p}% applies to the {loan}.", "The interest rate of the {loan} is {r[0]} at {p}%."],
  loan=["mortgage", "car loan", "student loan"], r=[("fixed", "variable"), ("variable", "fixed")],
  p=num(2, 9))  # fmt: skip
T("antonym", "timetables", "The {t} {vehicle} to {city} was {s[0]}.",
  ["The {t} {vehicle} to {city} was {s[1]}.", "The {vehicle} to {city} at {t} was {s[1]}."],
  ["The {vehicle} to {city} at {t} was {s[0]}.", "The {vehicle} that left for {city} at {t} was {s[0]}."],
  t=["8:15", "9:40", "17:05"], vehicle=["train", "bus", "ferry"], city=CITIES,
  s=[("on time", "delayed"), ("delayed", "on time")])  # fmt: skip
T("antonym", "manuals", "Remove the battery {when[0]} {task}.",
  ["Remove the battery {when[1]} {task}.", "The battery should be removed {when[1]} {task}."],
  ["{When[0]} {task}, remove the battery.", "The battery should be removed {when[0]} {task}."],
  when=[("before", "after"), ("after", "before")],
  task=["cleaning the contacts", "storing the camera", "updating the firmware"])  # fmt: skip
T("antonym", "policies", "The {mm[0]} {what} is {n} {unit}.",
  ["The {mm[1]} {what} is {n} {unit}.", "{Mm[4]} {n} {unit}."],
  ["The {what} is {mm[2]} {n} {unit}.", "{Mm[3]} {n} {unit}."],
  mm=[("minimum", "maximum", "at least", "Bookings must be for at least", "Bookings can be for at most"),
      ("maximum", "minimum", "at most", "Bookings can be for at most", "Bookings must be for at least")],
  what=["booking"], n=num(2, 14), unit=["nights", "days", "weeks"])  # fmt: skip
T("antonym", "medicine", "{Drug} {eff[0]} {measure}.",
  ["{Drug} {eff[1]} {measure}.", "{Measure} is {eff[4]} by {drug}."],
  ["{Measure} is {eff[2]} by {drug}.", "{Drug} {eff[3]} {measure}."],
  drug=["Dravolin", "Norvalex", "Brisoprin"], measure=["blood pressure", "heart rate", "blood sugar"],
  eff=[("increases", "decreases", "increased", "raises", "decreased"), ("decreases", "increases", "decreased", "lowers", "increased")])  # fmt: skip
T("antonym", "recipes", "Keep the {food} {where[0]} the fridge.",
  ["Keep the {food} {where[1]} the fridge.", "The {food} should be kept {where[1]} the fridge."],
  ["The {food} should be kept {where[0]} the fridge.", "Store the {food} {where[0]} the fridge."],
  food=["tomatoes", "bread", "fresh pasta", "cream cheese"], where=[("inside", "outside"), ("outside", "inside")])  # fmt: skip
T("antonym", "policies", "The {venue} is closed on {day}s.",
  ["The {venue} is open on {day}s.", "On {day}s the {venue} is open."],
  ["The {venue} is not open on {day}s.", "On {day}s the {venue} is closed."],
  venue=["pool", "gallery", "visitor centre", "library"], day=["Monday", "Tuesday", "Sunday"])  # fmt: skip
T("antonym", "policies", "The {venue} is open until {n} pm on {day}s.",
  ["The {venue} closes at {m} pm on {day}s.", "On {day}s the {venue} is open until {m} pm."],
  ["The {venue} closes at {n} pm on {day}s.", "On {day}s the {venue} closes at {n} pm."],
  venue=["pool", "gallery", "visitor centre", "library"], day=["Saturday", "Sunday"], n=num(5, 9),
  m=other("n", 4, 10))  # fmt: skip
T("antonym", "history", "The {building} was built {when[0]} the war.",
  ["The {building} was built {when[1]} the war.", "{When[1]} the war, the {building} was built."],
  ["The {building} was built {when[2]} the war.", "{When[3]} the war, the {building} was built."],
  building=["town hall", "lighthouse", "grain store", "chapel"],
  when=[("before", "after", "prior to", "Before"), ("after", "before", "following", "After")])  # fmt: skip
T("antonym", "history", "In {year} the {army} marched {d[0]} towards {city}.",
  ["In {year} the {army} marched {d[1]} towards {city}.", "The {army} marched {d[1]} towards {city} in {year}."],
  ["The {army} marched {d[0]} towards {city} in {year}.", "In {year}, the {army} marched {d[0]} towards {city}."],
  year=num(1450, 1850), army=["rebel army", "royal army", "militia"], city=CITIES,
  d=[("north", "south"), ("south", "north"), ("east", "west"), ("west", "east")])  # fmt: skip

# ... free, and a price
T("antonym", "prices", "{Thing} is free {when}.",
  ["{Thing} costs £{n} {when}.", "{Thing} is charged at £{n} {when}."],
  ["{Thing} costs nothing {when}.", "{Thing} is free of charge {when}."],
  thing=["parking", "entry to the museum", "the shuttle bus"], when=["after 6 pm", "on Sundays", "for members"],
  n=num(2, 9))  # fmt: skip

# ... and a word a prefix denies: locked / unlocked, refundable / non-refundable
T("antonym", "policies", "The {door} must be kept {l[0]} at night.",
  ["The {door} must be kept {l[1]} at night.", "At night the {door} must be kept {l[1]}."],
  ["At night the {door} must be kept {l[0]}.", "The {door} has to be kept {l[0]} at night."],
  door=["side gate", "store room", "server room", "fire exit"], l=[("locked", "unlocked"), ("unlocked", "locked")])  # fmt: skip
T("antonym", "prices", "{T[1]} are {r[0]}.",
  ["{T[1]} are {r[1]}.", "A {t[0]} is {r[1]}."],
  ["A {t[0]} is {r[0]}.", "Every {t[0]} is {r[0]}."],
  t=[("saver fare", "saver fares"), ("season ticket", "season tickets"), ("festival pass", "festival passes")], r=[("refundable", "non-refundable"), ("non-refundable", "refundable")])  # fmt: skip
T("antonym", "manuals", "The {device} is {a[0]} with {system}.",
  ["The {device} is {a[1]} with {system}.", "With {system}, the {device} is {a[1]}."],
  ["With {system}, the {device} is {a[0]}.", "The {device} is {a[0]} with {system}, the manual says."],
  device=["charger", "docking station", "card reader"], system=["the Orbit 5", "the HX10", "the TX-200"],
  a=[("compatible", "incompatible"), ("incompatible", "compatible")])  # fmt: skip
T("antonym", "history", "The {body} {v[0]} with the {plan} in {year}.",
  ["The {body} {v[1]} with the {plan} in {year}.", "In {year}, the {body} {v[1]} with the {plan}."],
  ["In {year}, the {body} {v[0]} with the {plan}.", "The {body} {v[0]} with the {plan} in the year {year}."],
  body=["council", "committee", "board"], plan=["harbour plan", "road scheme", "merger"],
  v=[("agreed", "disagreed"), ("disagreed", "agreed")], year=num(1950, 2020))  # fmt: skip

# --------------------------------------------------------------------------------------------
# entity and product swaps: model names, people, places

MODELS = ["TX-200", "TX-350", "Orbit 5", "Orbit 7", "HX10", "HX12"]
T("entity_swap", "manuals", "Only the {model} has {feature}.",
  ["The {model2} has {feature}."],
  ["The {model} is the only model with {feature}.", "{Feature} is found only on the {model}."],
  model=MODELS, model2=other_of("model", MODELS), feature=["a touchscreen", "a night mode", "a backlit keypad"])  # fmt: skip
T("entity_swap", "history", "The {work} was written by {person}.",
  ["The {work} was written by {person2}.", "{Person2} wrote the {work}."],
  ["{Person} wrote the {work}.", "{Person} is the author of the {work}."],
  work=["town chronicle", "first guidebook to the valley", "harbour ballad"], person=PEOPLE,
  person2=other_of("person", PEOPLE))  # fmt: skip
T("entity_swap", "policies", "The lease was signed by {p[0]} on behalf of the {org}.",
  ["The lease was signed by {p[1]} on behalf of the {org}.", "{P[1]} signed the lease on behalf of the {org}."],
  ["{P[0]} signed the lease on behalf of the {org}.", "On behalf of the {org}, the lease was signed by {p[0]}."],
  p=[("Anna Borg", "Anna Berg"), ("Tomas Reyes", "Tomas Ruiz"), ("Priya Raman", "Priya Menon")],
  org=["housing trust", "sailing club", "school board"])  # fmt: skip
T("entity_swap", "policies", "The company's head office is in {city}.",
  ["The company's head office is in {city2}."],
  ["The company has its head office in {city}.", "{City} is where the company's head office is."],
  city=CITIES, city2=other_of("city", CITIES))  # fmt: skip
T("entity_swap", "medicine", "The active ingredient in {brand} is {ing}.",
  ["The active ingredient in {brand} is {ing2}."],
  ["{Brand} contains {ing} as its active ingredient.", "{Ing} is the active ingredient in {brand}."],
  brand=["Dravolin", "Norvalex", "Brisoprin"], ing=["ibuprofen", "paracetamol", "loratadine", "cetirizine"],
  ing2=other_of("ing", ["ibuprofen", "paracetamol", "loratadine", "cetirizine"]))  # fmt: skip
T("entity_swap", "prices", "The starter kit works only with the {model} printer.",
  ["The starter kit works only with the {model2} printer.", "The starter kit works with the {model2} printer."],
  ["Only the {model} printer works with the starter kit."],
  model=MODELS, model2=other_of("model", MODELS))  # fmt: skip
T("entity_swap", "recipes", "The {dish} comes from {region}.",
  ["The {dish} comes from {region2}."],
  ["The {dish} originated in {region}.", "{Region} is where the {dish} comes from."],
  dish=["plum dumpling", "fish stew", "rye loaf"], region=["Bohemia", "Galicia", "Brittany", "Tuscany"],
  region2=other_of("region", ["Bohemia", "Galicia", "Brittany", "Tuscany"]))  # fmt: skip
T("entity_swap", "policies", "{What} must be approved by the {role}.",
  ["The {role2} must approve {what}.", "{What} must be approved by the {role2}."],
  ["The {role} must approve {what}.", "Only the {role} can approve {what}."],
  what=["refunds above 200 GBP", "overtime requests", "purchases over 500 euros"],
  role=["operations director", "finance team", "head nurse", "site manager"],
  role2=other_of("role", ["operations director", "finance team", "head nurse", "site manager"]))  # fmt: skip

# ... and things named by a common noun: another thing of the same kind in the same slot, beside the
# same thing in other words
SIDES = ["rice", "noodles", "potatoes", "bread"]
T("entity_swap", "recipes", "Serve the {dish} with {side}.",
  ["Serve the {dish} with {side2}.", "The {dish} is served with {side2}."],
  ["The {dish} is served with {side}.", "Serve {side} with the {dish}."],
  dish=["lamb stew", "bean chilli", "fish curry"], side=SIDES, side2=other_of("side", SIDES))  # fmt: skip
DRINKS = ["water", "milk", "juice"]
T("entity_swap", "medicine", "The tablets should be taken with {drink}.",
  ["The tablets should be taken with {drink2}.", "Take the tablets with {drink2}."],
  ["Take the tablets with {drink}.", "The tablets should be swallowed with {drink}.", "The pills should be taken with {drink}."],
  drink=DRINKS, drink2=other_of("drink", DRINKS))  # fmt: skip
PLACES = ["garage", "cellar", "kitchen", "garden shed"]
T("entity_swap", "manuals", "The {device} should be stored in the {place}.",
  ["The {device} should be stored in the {place2}.", "Store the {device} in the {place2}."],
  ["Store the {device} in the {place}.", "The {device} should be kept in the {place}."],
  device=["lawnmower", "pressure washer", "generator"], place=PLACES, place2=other_of("place", PLACES))  # fmt: skip
GOODS = ["books", "shoes", "toys", "furniture"]
T("entity_swap", "prices", "The gift voucher can be spent on {goods}.",
  ["The gift voucher can be spent on {goods2}.", "You can spend the gift voucher on {goods2}."],
  ["You can spend the gift voucher on {goods}.", "The gift voucher can be used to buy {goods}."],
  goods=GOODS, goods2=other_of("goods", GOODS))  # fmt: skip
USES = ["hospital", "school", "prison"]
T("entity_swap", "history", "During the war the {building} was used as a {use}.",
  ["During the war the {building} was used as a {use2}.", "The {building} was used as a {use2} during the war."],
  ["The {building} was used as a {use} during the war.", "During the war the {building} served as a {use}."],
  building=["castle", "town hall", "monastery"], use=USES, use2=other_of("use", USES))  # fmt: skip
T("entity_swap", "policies", "Only {who[0]} may use the {room}.",
  ["Only {who[1]} may use the {room}."],
  ["Only {who[2]} may use the {room}.", "The {room} may be used only by {who[0]}."],
  who=[("doctors", "nurses", "physicians"), ("pupils", "parents", "students"), ("children", "adults", "kids")],
  room=["staff room", "quiet room", "upper lounge"])  # fmt: skip

# --------------------------------------------------------------------------------------------
# role swaps: A does something to B vs B to A

T("role_swap", "policies", "The {r[0]} pays the {r[1]} {what}.",
  ["The {r[1]} pays the {r[0]} {what}."],
  ["{What} is paid by the {r[0]} to the {r[1]}.", "The {r[1]} is paid {what} by the {r[0]}."],
  r=[("tenant", "landlord"), ("buyer", "seller"), ("client", "agency"), ("member", "club")],
  what=["a deposit of two weeks' rent", "a booking fee", "a cancellation fee"])  # fmt: skip
T("role_swap", "prices", "The {r[0]} reimburses the {r[1]} for {cost}.",
  ["The {r[1]} reimburses the {r[0]} for {cost}."],
  ["The {r[1]} is reimbursed by the {r[0]} for {cost}.", "For {cost}, the {r[0]} reimburses the {r[1]}."],
  r=[("employer", "employee"), ("insurer", "policyholder"), ("airline", "passenger")],
  cost=["travel costs", "hotel bills", "taxi fares"])  # fmt: skip
T("role_swap", "medicine", "The {r[0]} must inform the {r[1]} of any {change}.",
  ["The {r[1]} must inform the {r[0]} of any {change}."],
  ["The {r[1]} must be informed of any {change} by the {r[0]}."],
  r=[("pharmacist", "prescriber"), ("nurse", "ward doctor"), ("patient", "surgeon")],
  change=["change in dose", "allergic reaction", "missed appointment"])  # fmt: skip
T("role_swap", "history", "{A} defeated {b} at the battle of {place}.",
  ["{B} defeated {a} at the battle of {place}."],
  ["{B} was defeated by {a} at the battle of {place}.", "At the battle of {place}, {a} defeated {b}."],
  a=["the Duke of Arlen", "Count Ferris", "the northern army"], b=["the rebel fleet", "Lord Haskett", "the city militia"],
  place=["Harrow Ford", "Kesby", "Minton Hill"])  # fmt: skip
T("role_swap", "timetables", "The {event} was moved from {days[0]} to {days[1]}.",
  ["The {event} was moved from {days[1]} to {days[0]}."],
  ["The {event} was moved to {days[1]} from {days[0]}.", "The {event} now takes place on {days[1]} instead of {days[0]}."],
  event=["staff meeting", "fire drill", "book club"],
  days=lambda rng, v: tuple(rng.sample(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], 2)))  # fmt: skip
T("role_swap", "manuals", "The {r[0]} sends {data} to the {r[1]}.",
  ["The {r[1]} sends {data} to the {r[0]}."],
  ["{Data} are sent to the {r[1]} by the {r[0]}.", "The {r[1]} receives {data} from the {r[0]}."],
  r=[("sensor", "hub"), ("thermostat", "boiler"), ("camera", "base station")],
  data=["readings", "status reports", "alerts"])  # fmt: skip

# --------------------------------------------------------------------------------------------
# quantifiers: all, some, none, only

T("quantifier", "policies", "All {u[0]} at the {site} are {adj}.",
  ["None of the {u[0]} at the {site} are {adj}.", "Only some of the {u[0]} at the {site} are {adj}."],
  ["Every {u[1]} at the {site} is {adj}.", "Each {u[1]} at the {site} is {adj}."],
  u=[("rooms", "room"), ("offices", "office"), ("lifts", "lift")], site=["hotel", "main campus", "depot"],
  adj=["non-smoking", "step-free", "air-conditioned"])  # fmt: skip
T("quantifier", "prices", "None of the {plan} plans include {feature}.",
  ["Some {plan} plans include {feature}.", "All {plan} plans include {feature}."],
  ["No {plan} plan includes {feature}.", "{Feature} is not included in any of the {plan} plans."],
  plan=["monthly", "family", "prepaid"], feature=["roaming", "international calls", "device insurance"])  # fmt: skip
T("quantifier", "manuals", "Only the {part} is dishwasher safe.",
  ["All parts are dishwasher safe.", "Every part of the appliance is dishwasher safe."],
  ["The {part} is the only dishwasher-safe part.", "The {part} is the only part that is dishwasher safe."],
  part=["lid", "mixing bowl", "steam basket", "juice jug"])  # fmt: skip
T("quantifier", "medicine", "None of the {n} patients in the trial reported {effect}.",
  ["Some patients in the trial reported {effect}.", "Most patients in the trial reported {effect}."],
  ["No patient in the trial reported {effect}.", "There were no reports of {effect} among the {n} patients in the trial."],
  n=num(40, 400, 20), effect=["headaches", "nausea", "dizziness", "skin rashes"])  # fmt: skip
T("quantifier", "recipes", "Every dish on the {menu} menu is {adj}.",
  ["Some dishes on the {menu} menu are not {adj}.", "Only a few dishes on the {menu} menu are {adj}."],
  ["All dishes on the {menu} menu are {adj}.", "Each dish on the {menu} menu is {adj}."],
  menu=["lunch", "children's", "summer"], adj=["vegetarian", "gluten-free", "nut-free"])  # fmt: skip
T("quantifier", "history", "All {n} crew members survived the {event}.",
  ["None of the crew survived the {event}.", "Only some of the crew survived the {event}."],
  ["Every member of the crew survived the {event}.", "The whole crew of {n} survived the {event}."],
  n=num(8, 40), event=["shipwreck", "storm of 1887", "mine flood"])  # fmt: skip
T("quantifier", "prices", "Delivery is free on orders {b} £{n}.",
  ["Delivery is free on all orders.", "Delivery is free on every order."],
  ["Orders {b} £{n} are delivered free.", "Delivery costs nothing on orders {b} £{n}."],
  b=["over", "above"], n=num(20, 80, 5))  # fmt: skip
T("quantifier", "medicine", "The {drug} is licensed for {g[0]} only.",
  ["The {drug} is licensed for {g[1]}.", "The {drug} is licensed for {g[1]} and {g[0]}."],
  ["The {drug} is licensed only for {g[0]}.", "The {drug} is licensed for use in {g[0]} only."],
  drug=["nasal spray", "vaccine", "skin cream"],
  g=[("adults", "children"), ("adults", "teenagers"), ("children", "adults")])  # fmt: skip

# --------------------------------------------------------------------------------------------
# values attached to the wrong qualifier

T("qualifier", "policies", "The {place} opens at {h[t1]} on weekdays and at {h[t2]} on Saturdays.",
  ["The {place} opens at {h[t2]} on weekdays.", "The {place} opens at {h[t1]} on Saturdays."],
  ["On Saturdays, the {place} opens at {h[t2]}.", "The {place} opens at {h[t1]} on weekdays."],
  place=["clinic", "library", "recycling centre", "swimming pool"], h=clock)  # fmt: skip
T("qualifier", "manuals", "The {device} weighs {v[a]} kg when empty and {v[b]} kg when full.",
  ["The {device} weighs {v[a]} kg when full.", "When empty, the {device} weighs {v[b]} kg."],
  ["When full, the {device} weighs {v[b]} kg.", "When empty, the {device} weighs {v[a]} kg."],
  device=["water tank", "sprayer", "dehumidifier", "cool box"], v=two_values(2, 30, 1))  # fmt: skip
T("qualifier", "medicine", "The usual dose of {drug} is {v[a]} mg for adults and {v[b]} mg for children.",
  ["The usual dose of {drug} for children is {v[a]} mg.", "Adults usually take {v[b]} mg of {drug}."],
  ["For adults, the usual dose of {drug} is {v[a]} mg.", "The usual dose of {drug} for children is {v[b]} mg."],
  drug=["Dravolin", "Norvalex", "Brisoprin"], v=two_values(5, 60, -1))  # fmt: skip
T("qualifier", "prices", "The {service} costs £{v[a]} per month or £{v[b]} per year.",
  ["The {service} costs £{v[a]} per year.", "The {service} costs £{v[b]} per month."],
  ["The {service} costs £{v[b]} per year.", "A month of the {service} costs £{v[a]}."],
  service=["gym membership", "cloud storage plan", "parking permit"], v=month_and_year)  # fmt: skip
T("qualifier", "recipes", "Bake for {v[a]} minutes in a fan oven or {v[b]} minutes in a conventional oven.",
  ["Bake for {v[a]} minutes in a conventional oven.", "In a fan oven, bake for {v[b]} minutes."],
  ["In a fan oven, bake for {v[a]} minutes.", "Bake for {v[b]} minutes in a conventional oven."],
  v=two_values(15, 60, 1))  # fmt: skip
T("qualifier", "history", "The {tower} was {v[a]} metres tall when built and {v[b]} metres tall after the {year} fire.",
  ["The {tower} was {v[b]} metres tall when built.", "After the {year} fire, the {tower} was {v[a]} metres tall."],
  ["When built, the {tower} was {v[a]} metres tall.", "After the {year} fire, the {tower} was {v[b]} metres tall."],
  tower=["bell tower", "mill chimney", "church spire"], v=two_values(20, 90, -1), year=num(1700, 1900))  # fmt: skip
T("qualifier", "timetables", "The {vehicle} leaves {cities[0]} at {h[t1]} and arrives in {cities[1]} at {h[t2]}.",
  ["The {vehicle} arrives in {cities[1]} at {h[t1]}.", "The {vehicle} leaves {cities[0]} at {h[t2]}."],
  ["The {vehicle} arrives in {cities[1]} at {h[t2]}.", "At {h[t1]}, the {vehicle} leaves {cities[0]}."],
  vehicle=["morning train", "night bus", "express coach"], cities=lambda rng, v: tuple(rng.sample(CITIES, 2)), h=clock)  # fmt: skip

# --------------------------------------------------------------------------------------------
# facts of structured records (JSON listings and product sheets): said the other way round, or as the
# record says them (the judge cannot read JSON; the rules read its yes/no keys and opening hours)

CAFES = ["Harbour Lights", "The Copper Kettle", "Millstone Cafe", "Blue Door Deli"]
T("record", "listings", '{{"name": "{place}", "attributes": {{"OutdoorSeating": true, "DogFriendly": false, "WiFi": "free"}}}}',
  ["{Place} has no outdoor seating.", "{Place} is dog friendly.", "There is no WiFi at {place}."],
  ["{Place} offers outdoor seating and WiFi.", "{Place} is not dog friendly.", "Outdoor seating is available at {place}."],
  place=CAFES)  # fmt: skip
T("record", "manuals", '{{"name": "{model}", "features": {{"Waterproof": true, "Bluetooth": false, "FastCharging": true}}}}',
  ["The {model} is not waterproof.", "The {model} has Bluetooth.", "The {model} has no fast charging."],
  ["The {model} is waterproof.", "The {model} has fast charging but no Bluetooth.", "The {model} does not have Bluetooth."],
  model=MODELS)  # fmt: skip
T("record", "prices", '{{"name": "{hotel}", "amenities": {{"Pool": false, "Gym": true, "FreeParking": true}}}}',
  ["{Hotel} has a pool.", "{Hotel} offers no free parking.", "There is no gym at {hotel}."],
  ["{Hotel} has a gym and free parking.", "{Hotel} does not have a pool.", "Free parking is available at {hotel}."],
  hotel=["Hotel Alder", "The Quayside Inn", "Pinewood Lodge"])  # fmt: skip
T("record", "listings", '{{"name": "{place}", "hours": {{"Monday": "9:0-17:0", "Tuesday": "9:0-17:0", "Saturday": "10:0-14:0"}}}}',
  ["{Place} is open from 9 am to 5 pm every day.", "{Place} opens at 8 am on Mondays.", "On Saturdays, {place} closes at 6 pm."],
  ["{Place} is open from 9 am to 5 pm on Mondays and Tuesdays.", "On Saturdays, {place} opens from 10 am to 2 pm."],
  place=CAFES)  # fmt: skip
T("record", "prices", '{{"name": "{model}", "rating": {r}, "reviews": [{{"rating": 5, "text": "Works well."}}, {{"rating": 3, "text": "Weak battery."}}]}}',
  ["The {model} has an average rating of {x} stars.", "Buyers rate the {model} {x} out of 5 stars."],
  ["The {model} is rated {r} out of 5 stars.", "One buyer gave the {model} 3 stars."],
  model=MODELS, r=["3.5", "4.2", "4.6"], x=other_of("r", ["2.8", "3.9", "4.4", "4.8"]))  # fmt: skip
T("record", "listings", '{{"name": "{place}", "hours": {{"Friday": "11:0-0:0", "Saturday": "11:0-0:0", "Sunday": "12:0-18:0"}}}}',
  ["{Place} is open until midnight every day.", "On Sundays, {place} closes at midnight.", "{Place} opens at noon on Fridays."],
  ["{Place} is open from 11 am to midnight on Fridays and Saturdays.", "On Sundays, {place} opens at noon and closes at 6 pm."],
  place=CAFES)  # fmt: skip

# --------------------------------------------------------------------------------------------
# textbook: pairs a new user writes first, by hand and without slots (a hotel's parking, a vaccine's
# doses, a bill, a loan's rate, a speed limit, a season's closure). Written to probe the verifier; the
# rules of 2026-11-27 were then written for many of them, so they guard those rules as much as they
# measure: the judge's misses (a near-synonym, a swapped noun) are among them.
T("textbook", "prices", "The hotel offers free parking for guests.",
  ["The hotel charges guests for parking."],
  ["Guests can park at the hotel at no cost."])  # fmt: skip
T("textbook", "policies", "The course is taught entirely online.",
  ["The course is taught in person."],
  [])  # fmt: skip
T("textbook", "medicine", "The vaccine is given in two doses, four weeks apart.",
  ["The vaccine is given in a single dose.", "The vaccine is given in two doses, six weeks apart."],
  ["Two doses of the vaccine are given a month apart."])  # fmt: skip
T("textbook", "prices", "The package weighs 5 pounds.",
  ["The package weighs 5 kilograms."],
  [])  # fmt: skip
T("textbook", "prices", "The printer supports double-sided printing.",
  ["The printer does not support double-sided printing."],
  ["The printer can print on both sides of the page."])  # fmt: skip
T("textbook", "prices", "Tickets must be bought in advance.",
  ["Tickets can be bought at the door."],
  [])  # fmt: skip
T("textbook", "policies", "Most of the staff work remotely.",
  ["All of the staff work remotely."],
  [])  # fmt: skip
T("textbook", "policies", "Half of the respondents agreed.",
  ["Most respondents agreed."],
  [])  # fmt: skip
T("textbook", "policies", "A third of the budget goes to salaries.",
  ["Two thirds of the budget goes to salaries."],
  [])  # fmt: skip
T("textbook", "history", "The Nile is the longest river in Africa.",
  ["The Nile is the second longest river in Africa."],
  [])  # fmt: skip
T("textbook", "history", "The contract was signed by Anna Borg.",
  ["The contract was signed by Anna Berg."],
  [])  # fmt: skip
T("textbook", "policies", "The inspection is carried out every year.",
  ["The inspection is carried out every two years."],
  ["The inspection is carried out annually."])  # fmt: skip
T("textbook", "timetables", "The meeting was moved to Thursday.",
  ["The meeting was moved to Tuesday."],
  [])  # fmt: skip
T("textbook", "timetables", "The meeting was postponed.",
  ["The meeting was brought forward."],
  [])  # fmt: skip
T("textbook", "policies", "The application was rejected.",
  ["The application was approved."],
  [])  # fmt: skip
T("textbook", "timetables", "The flight was on time.",
  ["The flight was delayed."],
  [])  # fmt: skip
T("textbook", "policies", "The app works on Windows and macOS.",
  [],
  ["The app runs on macOS."])  # fmt: skip
T("textbook", "policies", "Employees may work from home two days a week.",
  ["Employees may work from home three days a week."],
  ["Staff can work remotely for two days each week."])  # fmt: skip
T("textbook", "medicine", "The tablet should be swallowed whole.",
  ["The tablet should be chewed."],
  [])  # fmt: skip
T("textbook", "timetables", "The river floods every spring.",
  ["The river floods every autumn."],
  [])  # fmt: skip
T("textbook", "policies", "The building has 12 floors.",
  ["The building has 21 floors."],
  ["The building has twelve storeys."])  # fmt: skip
T("textbook", "timetables", "The store closes at 6 pm on Saturdays.",
  ["The store closes at 8 pm on Saturdays."],
  ["On Saturdays the store shuts at 6 in the evening."])  # fmt: skip
T("textbook", "history", "The bill was passed by the Senate in March.",
  ["The bill was rejected by the Senate in March."],
  [])  # fmt: skip
T("textbook", "policies", "Children under 5 travel free.",
  ["Children under 5 must buy a ticket.", "Children under 10 travel free."],
  [])  # fmt: skip
T("textbook", "history", "The engine was designed by Rolls-Royce.",
  ["The engine was designed by Pratt & Whitney."],
  [])  # fmt: skip
T("textbook", "timetables", "The lake is frozen from December to March.",
  ["The lake is frozen from December to February."],
  ["The lake is frozen in January."])  # fmt: skip
T("textbook", "prices", "The software is free for personal use.",
  ["The software is free for commercial use."],
  [])  # fmt: skip
T("textbook", "medicine", "Patients should fast for 8 hours before the test.",
  ["Patients should fast for 12 hours before the test."],
  ["Patients must not eat for eight hours before the test."])  # fmt: skip
T("textbook", "timetables", "The speed limit on the bridge is 40 km/h.",
  ["The speed limit on the bridge is 60 km/h.", "The speed limit on the bridge is 40 mph."],
  [])  # fmt: skip
T("textbook", "history", "The castle was built in the 12th century.",
  ["The castle was built in the 14th century."],
  ["The castle dates from the twelfth century."])  # fmt: skip
T("textbook", "prices", "The parcel will arrive within 3 working days.",
  ["The parcel will arrive within 3 weeks."],
  [])  # fmt: skip
T("textbook", "policies", "The museum is wheelchair accessible.",
  ["The museum is not accessible to wheelchair users."],
  [])  # fmt: skip
T("textbook", "recipes", "The plant needs full sun.",
  ["The plant needs full shade."],
  ["The plant grows best in direct sunlight."])  # fmt: skip
T("textbook", "prices", "The loan has a fixed interest rate.",
  ["The loan has a variable interest rate."],
  [])  # fmt: skip
T("textbook", "prices", "The account has no monthly fee.",
  ["The account charges a monthly fee."],
  [])  # fmt: skip
T("textbook", "prices", "Interest is paid quarterly.",
  ["Interest is paid monthly."],
  [])  # fmt: skip
T("textbook", "prices", "The laptop has 16 GB of RAM.",
  ["The laptop has 16 GB of storage."],
  [])  # fmt: skip
T("textbook", "prices", "The laptop has 16 GB of RAM and a 512 GB SSD.",
  ["The laptop has 512 GB of RAM."],
  [])  # fmt: skip
T("textbook", "history", "The film won the award for best director.",
  ["The film won the award for best actor."],
  [])  # fmt: skip
T("textbook", "prices", "The product is made in Germany.",
  ["The product is made in China."],
  [])  # fmt: skip
T("textbook", "timetables", "The tour lasts about 90 minutes.",
  ["The tour lasts about two hours."],
  ["The tour lasts about an hour and a half."])  # fmt: skip
T("textbook", "policies", "Entry is free on the first Sunday of each month.",
  ["Entry is free every Sunday."],
  [])  # fmt: skip
T("textbook", "history", "The survey was conducted among 2,000 adults.",
  ["The survey was conducted among 200 adults."],
  ["Two thousand adults took part in the survey."])  # fmt: skip
T("textbook", "timetables", "The gym is open 24 hours a day.",
  ["The gym closes at midnight."],
  [])  # fmt: skip
T("textbook", "timetables", "The ferry to the island runs twice a day.",
  ["The ferry to the island runs three times a day."],
  ["There are two ferries to the island each day."])  # fmt: skip
T("textbook", "prices", "Parking is free after 6 pm.",
  ["Parking is free before 6 pm."],
  [])  # fmt: skip
T("textbook", "timetables", "The exhibition ends on 30 June.",
  ["The exhibition ends on 30 July."],
  ["The exhibition runs until the end of June."])  # fmt: skip
T("textbook", "prices", "The dishwasher uses 9 litres of water per cycle.",
  ["The dishwasher uses 19 litres of water per cycle."],
  ["Each cycle of the dishwasher uses nine litres of water."])  # fmt: skip
T("textbook", "policies", "The hotel does not accept pets.",
  ["The hotel welcomes pets."],
  ["Pets are not accepted at the hotel."])  # fmt: skip
T("textbook", "recipes", "The bakery sells gluten-free bread.",
  ["The bakery does not sell gluten-free bread."],
  [])  # fmt: skip
T("textbook", "prices", "The fund invests mainly in European shares.",
  ["The fund invests mainly in Asian shares.", "The fund invests mainly in European bonds."],
  [])  # fmt: skip
T("textbook", "prices", "The phone has a 6.1-inch screen.",
  ["The phone has a 6.7-inch screen."],
  ["The phone's screen measures 6.1 inches."])  # fmt: skip
T("textbook", "prices", "Refunds take up to 10 business days.",
  ["Refunds take up to 10 weeks."],
  [])  # fmt: skip
T("textbook", "history", "The symphony was composed by Dvorak in 1893.",
  ["The symphony was composed by Dvorak in 1883.", "The symphony was composed by Smetana in 1893."],
  ["Dvorak wrote the symphony in 1893."])  # fmt: skip
T("textbook", "timetables", "The lift is out of service until Friday.",
  ["The lift is working normally."],
  [])  # fmt: skip
T("textbook", "medicine", "The medicine should be stored in a cool, dry place.",
  ["The medicine should be stored in a warm, humid place."],
  ["Keep the medicine somewhere cool and dry."])  # fmt: skip
T("textbook", "policies", "The office is on the third floor.",
  ["The office is on the fifth floor."],
  [])  # fmt: skip
T("textbook", "policies", "Applicants must be at least 18 years old.",
  ["Applicants must be at least 21 years old.", "Applicants under 18 are accepted."],
  ["The minimum age for applicants is 18."])  # fmt: skip
T("textbook", "policies", "The river is 120 km long.",
  ["The river is 120 miles long."],
  [])  # fmt: skip
T("textbook", "timetables", "The concert starts at 8 pm.",
  ["The concert starts at 8 am."],
  ["The concert begins at 20:00."])  # fmt: skip
T("textbook", "history", "The report was published in the spring.",
  ["The report was published in the autumn."],
  [])  # fmt: skip
T("textbook", "policies", "Smoking is banned on all platforms.",
  ["Smoking is allowed on some platforms."],
  [])  # fmt: skip
T("textbook", "prices", "The subscription renews automatically every month.",
  ["The subscription renews automatically every year.", "The subscription has to be renewed manually."],
  [])  # fmt: skip
T("textbook", "policies", "The company employs 3,500 people.",
  ["The company employs 35,000 people."],
  ["The company has a workforce of 3,500."])  # fmt: skip
T("textbook", "history", "The bridge is made of steel.",
  ["The bridge is made of wood."],
  [])  # fmt: skip
T("textbook", "policies", "Tap water in the city is safe to drink.",
  ["Tap water in the city is unsafe to drink.", "Tap water in the city should not be drunk."],
  [])  # fmt: skip
T("textbook", "medicine", "The trial included 400 patients over two years.",
  ["The trial included 400 patients over three years."],
  ["The trial ran for two years with 400 patients."])  # fmt: skip

# --------------------------------------------------------------------------------------------
# passage: a value, a name or a negation moved to the claim from a neighbouring sentence of a passage
# (a retrieved chunk is several sentences; the word the claim takes is in it, said of another thing)


def hours_of_day(rng: Random, v: Mapping[str, str]) -> dict[str, str]:
    """Weekday opening hours a-b and weekend hours c-d, the four times all different."""
    a, c = rng.sample(["6:30", "7:00", "7:30", "8:00", "9:00", "10:00"], 2)
    b, d = rng.sample(["17:00", "18:00", "19:30", "20:00", "21:00", "22:00"], 2)
    return {"a": a, "b": b, "c": c, "d": d}


T("passage", "timetables", "The {place} is open from {t[a]} to {t[b]} on weekdays. At weekends it opens at {t[c]} and closes at {t[d]}.",
  ["On weekdays the {place} opens at {t[c]}.", "At weekends the {place} closes at {t[b]}."],
  ["On weekdays the {place} opens at {t[a]}.", "At weekends the {place} closes at {t[d]}."],
  place=["swimming pool", "library", "sports centre", "town museum"], t=hours_of_day)  # fmt: skip
T("passage", "medicine", "Patients should fast for {n[a]} hours before the {test}. They may drink water up to {n[b]} hours before it.",
  ["Patients should fast for {n[b]} hours before the {test}."],
  ["Before the {test}, patients should fast for {n[a]} hours.",
   "Patients may drink water until {n[b]} hours before the {test}."],
  test=["scan", "blood test", "operation"], n=two_values(2, 12, -1))  # fmt: skip
T("passage", "medicine", "Store the {drug} between 2 and 8 °C. Once opened, the vial must be used within {h} hours.",
  ["Once opened, the vial must be used within 8 hours."],
  ["An opened vial must be used within {h} hours.", "The {drug} should be stored at 2-8 °C."],
  drug=["vaccine", "insulin", "eye drops"], h=["4", "6", "12", "24"])  # fmt: skip
T("passage", "history", "The {building} was built in {y[a]} and extended in {y[b]}.",
  ["The {building} was extended in {y[a]}.", "The {building} was built in {y[b]}."],
  ["The {building} was extended in {y[b]}.", "In {y[a]} the {building} was built."],
  building=["museum", "town hall", "railway station", "library"], y=two_values(1850, 1960, 1))  # fmt: skip
T("passage", "history", "The company was founded in {c[0]} in {year}. Its head office moved to {c[1]} in 2015.",
  ["The company was founded in {c[1]}.", "The head office moved to {c[0]} in 2015."],
  ["The company was founded in {c[0]}.", "In 2015 the head office moved to {c[1]}."],
  c=[("Leeds", "Manchester"), ("Porto", "Lisbon"), ("Turin", "Milan"), ("Cork", "Dublin")],
  year=["1987", "1962", "1994"])  # fmt: skip
T("passage", "policies", "Dogs are allowed on the {trail} on a lead. Camping is not permitted along the {trail}.",
  ["Dogs are not allowed on the {trail}.", "Camping is permitted along the {trail}."],
  ["Dogs on a lead are allowed on the {trail}.", "Camping along the {trail} is not allowed."],
  trail=["coastal path", "hiking trail", "river walk"])  # fmt: skip
T("passage", "medicine", "Patients may drink water up to {h} hours before the scan. Results are usually sent to the GP within {d} days.",
  ["Results are sent to the GP within {h} days."],
  ["The GP usually receives the results within {d} days."],
  h=["2", "3"], d=["7", "10", "14"])  # fmt: skip
T("passage", "prices", "Adults pay {p[a]} euros. Children under 12 pay {p[b]} euros.",
  ["Children under 12 pay {p[a]} euros.", "Adults pay {p[b]} euros."],
  ["Children under 12 pay {p[b]} euros.", "The adult price is {p[a]} euros."],
  p=two_values(8, 20, -1))  # fmt: skip
T("passage", "prices", "Standard delivery takes {n[a]} working days and costs £4.99. Express delivery takes {n[b]} working day and costs £9.99.",
  ["Standard delivery takes {n[b]} working day.", "Express delivery costs £4.99."],
  ["Express delivery costs £9.99.", "Standard delivery takes {n[a]} working days."],
  n=(lambda rng, v: {"a": str(rng.choice([3, 4, 5])), "b": "1"}))  # fmt: skip
T("passage", "manuals", "The {device} weighs {w[a]} kg. Its battery lasts up to {h} hours on a single charge.",
  ["The battery lasts up to {w[a]} hours on a single charge."],
  ["On a single charge the battery lasts up to {h} hours.", "The {device} has a weight of {w[a]} kg."],
  device=["drill", "vacuum cleaner", "lawn trimmer"], w=two_values(2, 4), h=["6", "8", "10"])  # fmt: skip
T("passage", "recipes", "Bake the {cake} at 180 °C for {m} minutes. Leave it to cool for 15 minutes before slicing.",
  ["Bake the {cake} for 15 minutes.", "Leave the {cake} to cool for {m} minutes."],
  ["Bake the {cake} at 180 °C for {m} minutes.", "Let it cool for a quarter of an hour before slicing."],
  cake=["sponge", "carrot cake", "banana bread"], m=["35", "40", "50"])  # fmt: skip
