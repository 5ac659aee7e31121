# ruff: noqa: E501  (scenes: each sentence reads best on one line)
"""Paraphrase-split scenes about amounts: counts, temperatures, units, ranges, bounds, percentages
and money, said in words or in another unit (rrag/tools/paraphrase_split.py says what the split is).
A TEST set: never training data."""

from __future__ import annotations

from random import Random

from rrag.tools.paraphrase_kit import (
    TOWNS,
    Draft,
    SceneBook,
    amount_words,
    capital,
    celsius,
    draft,
    fahrenheit,
    far,
    number,
    other,
    words,
)

book = SceneBook()

# --------------------------------------------------------------------------------------------
# count: how many, said in words


@book.scene("count", "sports")
def squad(rng: Random) -> Draft:
    side, bench = rng.choice([5, 7, 11, 15]), rng.choice([3, 5, 7])
    sport = {5: "futsal", 7: "netball", 11: "hockey", 15: "rugby union"}[side]
    wrong_side, wrong_bench = other(rng, [6, 8, 9, 12, 13], side), other(rng, [2, 4, 6, 9], bench)
    return draft(
        f"In {sport}, each team has {side} players on the pitch and may name {bench} substitutes.",
        [
            f"A {sport} side lines up with {words(side)} players.",
            f"Up to {words(bench)} replacements can be listed by a {sport} team.",
        ],
        [
            f"A {sport} side lines up with {words(wrong_side)} players.",
            f"{capital(words(wrong_bench))} replacements can be listed by a {sport} team, and no more.",
        ],
        [f"A {sport} match is split into two halves of equal length."],
    )


@book.scene("count", "schools")
def classroom(rng: Random) -> Draft:
    pupils, helpers = rng.randint(18, 32), rng.choice([1, 2, 3])
    wrong = far(rng, pupils, range(12, 40), 4)
    grown_ups = {
        1: "one adult helps as a teaching assistant",
        2: "two adults help as teaching assistants",
        3: "three adults help as teaching assistants",
    }
    return draft(
        f"Mrs Achebe's class has {pupils} pupils and {helpers} teaching assistant{'s' * (helpers > 1)}.",
        [
            f"There are {words(pupils)} children in the class Mrs Achebe teaches.",
            f"Besides Mrs Achebe, {grown_ups[helpers]} in her classroom.",
        ],
        [
            f"Mrs Achebe teaches a class of {words(wrong)} children.",
            "Mrs Achebe's class is taught with no teaching assistant at all.",
        ],
        ["Mrs Achebe's class goes swimming every week."],
    )


@book.scene("count", "recipes")
def pancakes(rng: Random) -> Draft:
    eggs, makes = rng.choice([2, 3, 4]), rng.choice([8, 10, 12, 16])
    wrong_eggs, wrong_makes = other(rng, [1, 5, 6], eggs), far(rng, makes, [4, 6, 20, 24, 30], 4)
    return draft(
        f"This batter uses {eggs} eggs and 300 ml of milk, and it makes {makes} pancakes.",
        [
            f"You get {words(makes)} pancakes out of this batter.",
            f"{capital(words(eggs))} eggs go into the batter, along with three hundred millilitres of milk.",
        ],
        [
            f"The batter calls for {words(wrong_eggs)} eggs.",
            f"Enough batter for {words(wrong_makes)} pancakes comes out of this recipe.",
        ],
        ["The pancakes can be frozen for up to a month."],
    )


# --------------------------------------------------------------------------------------------
# temperature: converted between Fahrenheit and Celsius


@book.scene("temperature", "recipes")
def oven(rng: Random) -> Draft:
    heat, minutes = rng.choice([325, 350, 375, 400, 425]), rng.choice([20, 25, 30, 45])
    dish = rng.choice(["cornbread", "lasagne", "granola", "fruit crumble"])
    wrong_heat = other(rng, [325, 350, 375, 400, 425, 450], heat, heat - 25, heat + 25)
    return draft(
        f"Bake the {dish} at {heat}°F for {minutes} minutes.",
        [
            f"The {dish} needs {words(minutes)} minutes in an oven heated to about {celsius(heat)} degrees Celsius.",
            f"Cook the {dish} for {words(minutes)} minutes with the oven set to {heat} degrees Fahrenheit.",
        ],
        [
            f"Set your oven to {wrong_heat}°F and give the {dish} {words(minutes)} minutes.",
            f"The {dish} should go into an oven at {celsius(wrong_heat)} degrees Celsius.",
        ],
        [f"The {dish} should rest for ten minutes once it comes out of the oven."],
    )


@book.scene("temperature", "health")
def fever(rng: Random) -> Draft:
    threshold = rng.choice([37.5, 38.0, 38.5])
    higher = threshold + rng.choice([1.5, 2.0])
    return draft(
        f"A child has a fever when their temperature is {number(threshold)}°C or higher.",
        [
            f"Any reading from {fahrenheit(threshold)} upwards means the child is feverish.",
            f"When a child's temperature reaches {number(threshold)} degrees Celsius, that counts as a fever.",
        ],
        [
            f"A child only counts as feverish from {fahrenheit(higher)} upwards.",
            f"A temperature of {number(threshold)} degrees Celsius is normal for a child.",
        ],
        ["A child with a fever should stay home from school."],
    )


@book.scene("temperature", "manuals")
def wool_wash(rng: Random) -> Draft:
    limit = rng.choice([30, 40])
    garment = rng.choice(["wool jumper", "silk scarf", "down jacket"])
    return draft(
        f"Wash the {garment} at no more than {limit}°C.",
        [
            f"The {garment} must not be washed hotter than {fahrenheit(limit)}.",
            f"A wash of {words(limit)} degrees Celsius is the warmest the {garment} can take.",
        ],
        [
            f"The {garment} can safely go in a {words(limit + 30)}-degree wash.",
            f"The {garment} needs a wash of at least {fahrenheit(limit + 20)}.",
        ],
        [f"The {garment} can go in the tumble dryer."],
    )


# --------------------------------------------------------------------------------------------
# unit: the same amount in another unit of the same measure


@book.scene("unit", "manuals")
def appliance_weight(rng: Random) -> Draft:
    kg = rng.choice([2.5, 3.5, 4.25, 6.5, 8.5])
    device = rng.choice(["stand mixer", "air fryer", "leaf blower", "sewing machine"])
    wrong = other(rng, [1.5, 5.0, 7.0, 9.5, 12.0], kg)
    return draft(
        f"The {device} weighs {number(kg)} kg.",
        [
            f"Weighing {amount_words(kg)} kilograms, the {device} is easy to lift.",
            f"On the scales the {device} comes to {number(kg * 1000)} grams.",
        ],
        [
            f"Weighing {amount_words(wrong)} kilograms, the {device} is easy to lift.",
            f"On the scales the {device} comes to {number(kg * 100)} grams.",
        ],
        [f"The {device} comes with a two-year guarantee."],
    )


@book.scene("unit", "travel")
def walk_to_station(rng: Random) -> Draft:
    km = rng.choice([1.25, 1.5, 2.0, 2.5, 3.0])
    town = rng.choice(TOWNS)
    wrong_metres = other(rng, [250, 900, 4000, 5000], int(km * 1000))
    return draft(
        f"Our guest house in {town} is {number(km)} km from the railway station.",
        [
            f"From {town} railway station it is {number(km * 1000)} metres to the guest house.",
            f"The station lies {amount_words(km)} kilometres away from the {town} guest house.",
        ],
        [
            f"From {town} railway station it is {number(wrong_metres)} metres to the guest house.",
            f"The station lies {amount_words(km)} miles away from the {town} guest house.",
        ],
        [f"A shuttle bus runs between {town} station and the guest house."],
    )


@book.scene("unit", "recipes")
def dough_rise(rng: Random) -> Draft:
    hours = rng.choice([1.5, 2.0, 2.5, 3.0])
    wrong = other(rng, [20, 45, 240, 300], int(hours * 60))
    return draft(
        f"Cover the dough and leave it to rise for {amount_words(hours)} hours in a warm place.",
        [
            f"The dough has to prove for {int(hours * 60)} minutes somewhere warm, covered.",
            f"Somewhere warm, under a cloth, the dough rises for {words(int(hours * 60))} minutes.",
        ],
        [
            f"The dough has to prove for {wrong} minutes somewhere warm, covered.",
            f"The dough rises for {amount_words(hours)} minutes and is then ready.",
        ],
        ["The dough should be kneaded for ten minutes before it rises."],
    )


# --------------------------------------------------------------------------------------------
# range: a span of values, and values outside it


@book.scene("range", "shopping")
def parcel(rng: Random) -> Draft:
    low = rng.choice([2, 3, 4])
    high = low + rng.choice([2, 3])
    return draft(
        f"Standard delivery takes {low}-{high} working days.",
        [
            f"With standard delivery, expect the parcel within {words(low)} to {words(high)} business days.",
            f"A standard parcel arrives no sooner than {words(low)} and no later than {words(high)} working days.",
        ],
        [
            "With standard delivery the parcel turns up the following day.",
            f"Standard delivery needs {words(high + 2)} weeks.",
        ],
        ["Standard delivery is free on orders over fifty pounds."],
    )


@book.scene("range", "recipes")
def simmer(rng: Random) -> Draft:
    low = rng.choice([15, 20, 25])
    high = low + rng.choice([5, 10])
    pot = rng.choice(["bean stew", "onion gravy", "chickpea curry"])
    return draft(
        f"Simmer the {pot} gently for {low} to {high} minutes.",
        [
            f"Let the {pot} bubble gently for between {words(low)} and {words(high)} minutes.",
            f"The {pot} needs at least {words(low)} and at most {words(high)} minutes on a low heat.",
        ],
        [
            f"The {pot} needs two hours on a low heat.",
            f"Let the {pot} bubble gently for no more than {words(low - 10)} minutes.",
        ],
        [f"The {pot} should be stirred every five minutes."],
    )


@book.scene("range", "schools")
def holiday_camp(rng: Random) -> Draft:
    young = rng.choice([5, 6, 7])
    old = young + rng.choice([4, 5, 6])
    return draft(
        f"The holiday camp takes children aged {young} to {old}.",
        [
            f"Children from {words(young)} to {words(old)} years old can go to the holiday camp.",
            f"Boys and girls between the ages of {words(young)} and {words(old)} are welcome at the camp.",
        ],
        [
            f"The holiday camp is only open to teenagers of {words(old + 3)} and over.",
            f"A {words(young - 3)}-year-old can join the holiday camp.",
        ],
        ["The holiday camp runs for two weeks in August."],
    )


# --------------------------------------------------------------------------------------------
# bound: a lower or upper limit, said from the other side


@book.scene("bound", "travel")
def cabin_bag(rng: Random) -> Draft:
    kg = rng.choice([7, 8, 10, 12])
    heavier = kg + rng.choice([5, 8])
    return draft(
        f"Bags taken into the cabin must not exceed {kg} kg.",
        [
            f"A cabin bag must not go over {words(kg)} kilograms.",
            f"Anything heavier than {number(kg * 1000)} grams is too heavy for the cabin.",
        ],
        [
            f"A cabin bag can weigh up to {words(heavier)} kilograms.",
            f"Cabin bags have to weigh at least {words(kg)} kilograms.",
        ],
        ["Each passenger may bring one cabin bag."],
    )


@book.scene("bound", "transport")
def van_hire(rng: Random) -> Draft:
    age = rng.choice([21, 23, 25])
    return draft(
        f"To hire one of our vans you must be at least {age} years old.",
        [
            f"Nobody under {words(age)} can rent a van from us.",
            f"Van hire is open to drivers of {words(age)} and older.",
        ],
        [
            f"Drivers of {words(age - 4)} are allowed to rent our vans.",
            f"Only drivers younger than {words(age)} may hire a van.",
        ],
        ["Van hire includes unlimited mileage."],
    )


@book.scene("bound", "finance")
def cash_withdrawal(rng: Random) -> Draft:
    limit = rng.choice([200, 300, 500])
    return draft(
        f"Cash withdrawals of up to {limit} euros a day are free of charge.",
        [
            f"No fee applies as long as you take out {words(limit)} euros or less in a day.",
            f"Taking out no more than {words(limit)} euros daily costs nothing.",
        ],
        [
            "A fee is charged on every cash withdrawal, however small.",
            f"Daily withdrawals are free only up to {words(limit // 4)} euros.",
        ],
        ["Withdrawals made abroad cost two euros each."],
    )


# --------------------------------------------------------------------------------------------
# percentage: a share said as a fraction, a complement or another figure


@book.scene("percentage", "schools")
def exam_pass(rng: Random) -> Draft:
    share = rng.choice([60, 75, 80, 90])
    wrong = far(rng, share, [20, 30, 40, 50], 20)
    return draft(
        f"{share}% of the pupils passed the final exam this year.",
        [
            f"This year {words(100 - share)} per cent of the pupils failed the final exam.",
            f"Out of every hundred pupils, {words(share)} got through this year's final exam.",
        ],
        [
            f"Only {words(wrong)} per cent of the pupils got through this year's final exam.",
            "Most pupils failed this year's final exam.",
        ],
        ["This year's final exam was harder than last year's."],
    )


@book.scene("percentage", "shopping")
def sale(rng: Random) -> Draft:
    off, said = rng.choice([(50, "half"), (25, "a quarter"), (20, "a fifth"), (10, "a tenth")])
    wrong = other(rng, [15, 30, 40, 70], off)
    return draft(
        f"Everything in the winter sale is reduced by {off}%.",
        [
            f"In the winter sale, {said} comes off the usual price of everything.",
            f"The winter sale takes {words(off)} per cent off every item.",
        ],
        [
            f"The winter sale takes {words(wrong)} per cent off every item.",
            f"The winter sale puts every price up by {said}.",
        ],
        ["The winter sale ends on the last Sunday of January."],
    )


@book.scene("percentage", "health")
def vaccine_admissions(rng: Random) -> Draft:
    cut = rng.choice([30, 40, 60, 70])
    return draft(
        f"The vaccine cut hospital admissions among older adults by {cut}%.",
        [
            f"Among older adults, hospital admissions fell by {words(cut)} per cent thanks to the vaccine.",
            f"Thanks to the vaccine, {words(cut)} per cent fewer older people ended up in hospital.",
        ],
        [
            f"Among older adults, hospital admissions rose by {words(cut)} per cent after the vaccine.",
            f"Thanks to the vaccine, {words(cut // 10)} per cent fewer older people ended up in hospital.",
        ],
        ["The vaccine is given in two doses a month apart."],
    )


# --------------------------------------------------------------------------------------------
# money: a price or a sum in words or with another currency sign


@book.scene("money", "sports")
def gym_membership(rng: Random) -> Draft:
    price = rng.choice([240, 360, 480, 600])
    wrong = other(rng, [120, 300, 720, 900], price)
    return draft(
        f"An annual membership at the leisure centre costs ${price}.",
        [
            f"A year's membership of the leisure centre is {words(price)} dollars.",
            f"Joining the leisure centre for twelve months costs {words(price)} dollars.",
        ],
        [
            f"A year's membership of the leisure centre is {words(wrong)} dollars.",
            f"Joining the leisure centre for twelve months costs {words(price)} pounds.",
        ],
        ["Members of the leisure centre get free towels."],
    )


@book.scene("money", "travel")
def return_fare(rng: Random) -> Draft:
    fare = rng.choice([18, 24, 36, 45])
    town = rng.choice(TOWNS)
    return draft(
        f"A return ticket to {town} is £{fare}.",
        [
            f"Going to {town} and coming back costs {words(fare)} pounds.",
            f"For {words(fare)} pounds you can travel to {town} and back.",
        ],
        [
            f"Going to {town} and coming back costs {words(fare * 3)} pounds.",
            f"The journey to {town} and back costs nothing.",
        ],
        [f"Tickets to {town} are cheaper on weekdays."],
    )


@book.scene("money", "finance")
def savings_bonus(rng: Random) -> Draft:
    thousands = rng.choice([2, 5, 10])
    bonus = rng.choice([50, 100, 150])
    return draft(
        f"Savers who deposit €{thousands},000 before March receive a €{bonus} bonus.",
        [
            f"A bonus of {words(bonus)} euros goes to anyone who pays in {words(thousands)} thousand euros before March.",
            f"Pay in {words(thousands * 1000)} euros before March and the bank adds {words(bonus)} euros.",
        ],
        [
            f"A bonus of {words(bonus * 10)} euros goes to anyone who pays in {words(thousands)} thousand euros before March.",
            f"The {words(bonus)}-euro bonus only goes to savers who pay in after March.",
        ],
        ["The bonus is paid into the account in April."],
    )
