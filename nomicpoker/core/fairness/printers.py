"""Word lists for the Trading Post's "Cards printed by: <printer>, <town>" checksum line.

In the 2008 BlogNomic Poker Deck Trading Post every deck came with a whimsical printer's
name, and players quoted it to show which deck they were drawing from. We keep that spirit:
the printer and town are picked from these lists by bytes of the deck's SHA-256 digest (see
:func:`nomicpoker.core.fairness.dealing.deck_checksum` and docs/fair-dealing.md).

WHY the sizes are powers of two: each name part is chosen by ``digest_byte % len(list)``;
with 16 or 64 entries that is exactly unbiased, and a re-implementation elsewhere needs only
the lists and one modulo. These lists are part of the public construction: never reorder,
edit or extend them (a change would alter every published checksum). No entry is eight hex
digits, so the hex suffix of a checksum can never be mistaken for a town.
"""

from __future__ import annotations

#: 16 initials (byte 4 and byte 5 of the digest pick the two initials).
INITIALS: tuple[str, ...] = (
    "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "P", "R", "S", "W",
)

#: 64 surnames (byte 6 of the digest).
SURNAMES: tuple[str, ...] = (
    "Grimes", "Hollister", "McCandless", "Pettibone", "Thornbury", "Waddell", "Quimby",
    "Fairweather", "Abernathy", "Blevins", "Crabtree", "Dunwoody", "Easterbrook", "Fenwick",
    "Gorham", "Haverford", "Ingersoll", "Jessup", "Kettering", "Lockhart", "Mabry",
    "Nettleton", "Oglesby", "Peabody", "Quackenbush", "Rutherford", "Sowerby", "Tillinghast",
    "Upshaw", "Vandiver", "Whitcomb", "Yarborough", "Ashby", "Bramwell", "Calloway",
    "Dinwiddie", "Ellsworth", "Fogarty", "Gilchrist", "Hargrove", "Inkpen", "Jellicoe",
    "Kimball", "Larkspur", "Muldoon", "Norcross", "Oakes", "Pennywhistle", "Ramsbottom",
    "Satterfield", "Tuttle", "Underhill", "Vickery", "Winterbottom", "Birdwhistle",
    "Cobblestone", "Dabney", "Featherstone", "Goodnight", "Huckabee", "Kingsley", "Loveless",
    "Merriweather", "Pickering",
)

#: 16 trades (byte 7 of the digest). The printer is "<I>. <I>. <Surname> <Trade>".
TRADES: tuple[str, ...] = (
    "Printing", "Press", "& Sons", "Lithographers", "Card Company", "Engraving",
    "Printworks", "Brothers", "Playing Card Co.", "Stationers", "Typefoundry", "& Daughters",
    "Printing House", "Job Printers", "Letterpress", "Bindery",
)

#: 64 towns (byte 8 of the digest).
TOWNS: tuple[str, ...] = (
    "Elko", "Winnemucca", "Tonopah", "Deadwood", "Tombstone", "Virginia City", "Goldfield",
    "Ely", "Pioche", "Eureka", "Austin", "Lovelock", "Beatty", "Rhyolite", "Searchlight",
    "Jarbidge", "Bodie", "Leadville", "Cripple Creek", "Silverton", "Ouray", "Telluride",
    "Durango", "Laramie", "Cheyenne", "Dodge City", "Abilene", "Wichita", "Ogallala",
    "Bisbee", "Jerome", "Oatman", "Kingman", "Prescott", "Globe", "Quartzsite", "Truckee",
    "Placerville", "Sonora", "Columbia", "Nevada City", "Grass Valley", "Yreka", "Weaverville",
    "Bannack", "Virginia Springs", "Butte", "Helena", "Missoula", "Wallace", "Idaho City",
    "Silver City", "Jacksonville", "Skagway", "Nome", "Dawson", "Barkerville", "Moab",
    "Park City", "Alta", "Pie Town", "Truth or Consequences", "Tucumcari", "Las Vegas",
)

assert len(INITIALS) == 16 and len(TRADES) == 16
assert len(SURNAMES) == 64 and len(TOWNS) == 64
assert len(set(SURNAMES)) == 64 and len(set(TOWNS)) == 64
