"""Console forms: only shape checks; every rule is the services' business."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.parsing import MAX_ROUND, MAX_TABLE, ascii_int

#: Text fields without a natural bound still have one (a description, a list of racks).
MAX_LONG_TEXT = 5_000
MAX_SEED = 2**62


class StrictIntegerField(forms.IntegerField):
    """An integer written with ASCII digits only (Django's field also reads ``٣`` or
    ``３`` as 3); the bounds are required so no value overflows a database column."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs: object) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)  # type: ignore[arg-type]

    def to_python(self, value: object) -> int | None:
        if value in self.empty_values:
            return None
        if ascii_int(value, signed=True, low=-(2**63), high=2**63) is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=200)
    slug = forms.SlugField(label=_("Identifiant (adresse)"), max_length=100)
    description = forms.CharField(label=_("Description"), required=False, max_length=MAX_LONG_TEXT,
                                  widget=forms.Textarea(attrs={"rows": 2}))  # fmt: skip
    lexicon = forms.ChoiceField(
        label=_("Lexique"),
        help_text=_("Le lexique libre du site, ou une liste du club (page Réglages)."),
    )
    seconds_per_move = StrictIntegerField(
        label=_("Secondes par coup"), min_value=1, max_value=3600, required=False
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        """The lexicon is required and starts on the site's free default list (issue 15)."""
        from tournaments.console.settings_forms import default_lexicon_choice, lexicon_choices

        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["lexicon"].choices = lexicon_choices()
        self.fields["lexicon"].initial = default_lexicon_choice()


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
    seed = StrictIntegerField(label=_("Graine"), required=False, min_value=0, max_value=MAX_SEED)
    predrawn = forms.CharField(
        label=_("Tirages prétirés"),
        required=False,
        max_length=MAX_LONG_TEXT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Une ligne par coup, rejets d'abord."),
    )
    sealed = forms.BooleanField(
        label=_("Sceller la partie prétirée (tirages chiffrés, dévoilés coup par coup)"),
        required=False,
    )
    rounds = StrictIntegerField(
        label=_("Coups annoncés"),
        required=False,
        min_value=1,
        max_value=MAX_ROUND,
        help_text=_(
            "Partie en N coups : elle se termine après le top du coup N. "
            "Vide : jusqu'au bout du sac."
        ),
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
    round_number = StrictIntegerField(label=_("Coup"), min_value=1, max_value=MAX_ROUND)
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
    table_number = StrictIntegerField(
        label=_("Table"), min_value=1, max_value=MAX_TABLE, required=False
    )
    centre_id = forms.TypedChoiceField(label=_("Centre"), required=False, coerce=int,
                                       empty_value=None, choices=())  # fmt: skip

    def __init__(self, *args: Any, centres: Any = (), **kwargs: Any):
        """``centres``: a simultaneous event's centres, offered to choose from."""
        super().__init__(*args, **kwargs)
        if centres:
            choices = [("", "—")] + [(str(c.pk), c.name) for c in centres]
            self.fields["centre_id"].choices = choices
        else:
            del self.fields["centre_id"]


class PlayersImportForm(forms.Form):
    file = forms.FileField(label=_("Fichier CSV ou XLSX"))
