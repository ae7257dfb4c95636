"""ISO 3166-1 alpha-2: the officially assigned country codes, for the optional country of a
player's public profile (shown there as a flag: the two regional indicator letters)."""

from __future__ import annotations

from taash.server.errors import BadRequest

COUNTRY_CODES = frozenset("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ
EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW
GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY
KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV
MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY
QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG
TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM
ZW
""".split())


def clean_country(raw: object) -> str | None:
    """A country code as given (any case) in upper case; "" clears it (None).  BadRequest
    unless two letters of an assigned code.

    >>> clean_country("pk"), clean_country("")
    ('PK', None)
    """
    if raw == "":
        return None
    if not isinstance(raw, str) or len(raw) != 2 or not raw.isascii() or not raw.isalpha():
        raise BadRequest(f"country must be two letters, an ISO 3166-1 alpha-2 code such as "
                         f"PK or IN (or \"\" for none), not {raw!r}")
    code = raw.upper()
    if code not in COUNTRY_CODES:
        raise BadRequest(f"country {raw!r} is not an ISO 3166-1 alpha-2 country code")
    return code


def flag(code: str) -> str:
    """The flag emoji of a country code: its letters as regional indicator symbols.

    >>> flag("PK") == "\\U0001F1F5\\U0001F1F0"
    True
    """
    return "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in code)
