"""Forms of a player's page (``console/players_pages.py``): shape checks only; the rules
(who may move a table, when a withdrawal may start) are the services'."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.console.forms import StrictIntegerField
from tournaments.parsing import MAX_GAME, MAX_ROUND, MAX_TABLE
from tournaments.services.registrations import MAX_REASON


class RegistrationForm(forms.Form):
    """The player's details and table."""

    name = forms.CharField(label=_("Nom"), max_length=200)
    licence = forms.CharField(label=_("Licence"), max_length=40, required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    federation = forms.CharField(label=_("Fédération"), max_length=20, required=False)
    series = forms.CharField(label=_("Série"), max_length=10, required=False)
    category = forms.CharField(label=_("Catégorie"), max_length=20, required=False)
    birth_year = StrictIntegerField(
        label=_("Année de naissance"), min_value=1900, max_value=2100, required=False
    )
    table_number = StrictIntegerField(label=_("Table"), min_value=1, max_value=MAX_TABLE)


class RoundForm(forms.Form):
    """A (game, round) pair: where a late arrival or a withdrawal starts."""

    game = StrictIntegerField(label=_("Partie"), min_value=1, max_value=MAX_GAME)
    round = StrictIntegerField(label=_("Coup"), min_value=1, max_value=MAX_ROUND)


class WithdrawForm(RoundForm):
    reason = forms.CharField(label=_("Motif"), max_length=MAX_REASON)


class CentreForm(forms.Form):
    """The player's centre in a simultaneous event (an id, or empty for none): the service
    checks it is a centre of the tournament."""

    centre = StrictIntegerField(label=_("Centre"), min_value=1, max_value=2**62, required=False)
