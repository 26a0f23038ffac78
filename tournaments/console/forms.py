"""Console forms: only shape checks; every rule is the services' business."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Lexicon


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=200)
    slug = forms.SlugField(label=_("Identifiant (adresse)"), max_length=100)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(
        attrs={"rows": 2}))  # fmt: skip
    lexicon = forms.ModelChoiceField(
        label=_("Lexique"), queryset=Lexicon.objects.order_by("name"), required=False
    )
    seconds_per_move = forms.IntegerField(label=_("Secondes par coup"), min_value=1, required=False)


class GameCreateForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Tirage"),
        choices=[
            ("seeded", _("aléatoire (graine)")),
            ("manual", _("sac réel (lettres tapées)")),
            ("predrawn", _("partie prétirée")),
        ],
        initial="seeded",
    )
    seed = forms.IntegerField(label=_("Graine"), required=False, min_value=0)
    predrawn = forms.CharField(
        label=_("Tirages prétirés"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Une ligne par coup, rejets d'abord."),
    )


class DrawForm(forms.Form):
    letters = forms.CharField(
        label=_("Lettres tirées du sac"),
        required=False,
        max_length=30,
        help_text=_("Reliquat puis « + » puis les nouvelles lettres, ? pour un joker."),
    )


class SlipForm(forms.Form):
    line = forms.CharField(label=_("Bulletin"), max_length=200, required=False)


class CorrectionForm(forms.Form):
    round_number = forms.IntegerField(label=_("Coup"), min_value=1)
    line = forms.CharField(
        label=_("Bulletin corrigé"),
        max_length=200,
        help_text=_("table référence mot [score], par exemple 12 H4 MOITAI 18"),
    )
    reason = forms.CharField(label=_("Motif"), max_length=500)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=200)
    licence = forms.CharField(label=_("Licence"), max_length=40, required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    series = forms.CharField(label=_("Série"), max_length=10, required=False)
    category = forms.CharField(label=_("Catégorie"), max_length=20, required=False)
    table_number = forms.IntegerField(label=_("Table"), min_value=1, required=False)


class PlayersImportForm(forms.Form):
    file = forms.FileField(label=_("Fichier CSV ou XLSX"))
