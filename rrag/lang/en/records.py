"""The words of structured records (a listing or a product sheet exported as JSON) and of the sentences
that speak of them: the values a yes/no key is set to, the words of a key that name the record's kind,
other spellings of a key's words, and the words any listing uses around its facts."""

from __future__ import annotations

import re

# A record's keys set to yes or no ('"OutdoorSeating": false'), and the braces of its objects.
RECORD_TOKEN = re.compile(
    r'"([A-Za-z][A-Za-z0-9_ ]{0,40})"\s*:\s*(\{|true\b|false\b|"(?:yes|no|free|paid|none)")|(\{)|(\})'
)
# What each value says.
SAYS = {
    "true": True,
    '"yes"': True,
    '"free"': True,  # "WiFi": "free": there is WiFi
    '"paid"': True,
    "false": False,
    '"no"': False,
    '"none"': False,
}
# A key's words that name the record's kind or a plain list of its facts, not the fact
# ("RestaurantsTakeOut" is take-out; "features": {"Bluetooth": false} is Bluetooth).
KIND_WORDS = tuple("restaurants business attributes features amenities facilities specifications".split())
# Other spellings of a key's words ("Ambience": the claim writes "ambiance" or "atmosphere").
OTHER_SPELLINGS = {"ambience": ("ambiance", "atmosphere", "vibe")}
# Where one part of a sentence ends and another with its own yes or no starts: a clause ("outdoor
# seating, but no WiFi"), or a predicate after "and" ("and does not take reservations").
PREDICATE = (
    r"has|have|had|is|are|was|were|does|do|did|doesn't|don't|offers?|provides?|accepts?|takes?|allows?|"
    r"features?|serves?|lacks?|can|cannot|also|it|its|they|their|there|the|all|a|an"
)
PART_BREAK = re.compile(
    rf"[;()]|:(?!\d)|\b(?:but|while|whereas|although|though|however)\b|\band\s+(?=(?:{PREDICATE})\b)",
    re.IGNORECASE,
)
PREDICATE_START = re.compile(rf"\s*(?:{PREDICATE})\b", re.IGNORECASE)
# Words any listing's sentences use around its facts: "offers outdoor seating", "takeout options".
LISTING_WORDS = tuple(
    """offer provide have feature include accept allow take serve available availability option
    service amenity facility also well both plus additionally customer guest patron visitor diner
    place establishment venue spot location""".split()
)
# A claim's rating ("a rating of 4.5 stars", "rated 4", "3.5 out of 5 stars", "a 4-star place"; not
# the 5 of "out of 5 stars"); digits only.
RATING_SAID = re.compile(
    r"\brat(?:ing|ed)\s+(?:of\s+)?(\d(?:\.\d+)?)\b(?!\s*%)"
    r"|(?<!of )(?<![\d.])\b(\d(?:\.\d+)?)(?:\s*-?\s*stars?\b|\s+out\s+of\s+(?:5|five)\b)",
    re.IGNORECASE,
)
