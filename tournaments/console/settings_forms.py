"""Forms of the settings and arbiters pages: only shape checks and the choices to offer;
the ranges come from ``services.tournament_settings`` and every rule is the services'."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from engine.duplicate.variants import VARIANTS
from tournaments import selectors
from tournaments.console.forms import MAX_LONG_TEXT, StrictIntegerField
from tournaments.models import Tournament
from tournaments.services.tournament_settings import LABELS, RANGES

#: The choice that stands for the site's default lexicon file before it is registered.
DEFAULT = "default"


def lexicon_choices(tournament_id: int | None = None) -> list[tuple[str, str]]:
    """The lexicons the tournament may choose (``selectors.lexicons_offered``), and the site's
    free default list while its file is there but not yet registered (a site created without
    the demo)."""
    choices = [
        (str(lex.pk), f"{lex.label} ({lex.word_count} mots)")
        for lex in selectors.lexicons_offered(tournament_id)
    ]
    if selectors.default_lexicon() is None and settings.TIRAGE_LEXICON.is_file():
        choices.insert(0, (DEFAULT, str(_("Lexique libre par défaut du site"))))
    return choices


def default_lexicon_choice() -> str | None:
    """What a new tournament's lexicon field starts on: the free default list."""
    row = selectors.default_lexicon()
    if row is not None:
        return str(row.pk)
    return DEFAULT if settings.TIRAGE_LEXICON.is_file() else None


def _number(field: str, **kwargs: Any) -> StrictIntegerField:
    low, high, empty = RANGES[field]
    help_text = _("Vide : la valeur de la formule.") if empty else ""
    return StrictIntegerField(label=LABELS[field], min_value=low, max_value=high,
                              required=not empty, help_text=help_text, **kwargs)  # fmt: skip


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


#: The settings of the duplicate formula, left out of a classic tournament's settings page
#: (its pairing and standings settings are shown instead, docs/classic.md).
DUPLICATE_ONLY = (
    "variant_code",
    "seconds_per_move",
    "warning_before_end",
    "warning_penalty_from",
    "solo_value",
    "solo_min_players",
    "score_required",
    "tie_break",
)


class TournamentSettingsForm(forms.Form):
    """Every setting of the settings page; ``locked`` fields are shown disabled (Django then
    ignores what a tampered form sends for them) with the reason as their help text."""

    name = forms.CharField(label=LABELS["name"], max_length=200)
    description = forms.CharField(label=LABELS["description"], required=False,
                                  max_length=MAX_LONG_TEXT,
                                  widget=forms.Textarea(attrs={"rows": 2}))  # fmt: skip
    starts_on = forms.DateField(label=LABELS["starts_on"], required=False, widget=DateInput())
    ends_on = forms.DateField(label=LABELS["ends_on"], required=False, widget=DateInput())
    lexicon_id = forms.ChoiceField(label=LABELS["lexicon_id"])
    variant_code = forms.ChoiceField(label=LABELS["variant_code"])
    seconds_per_move = _number("seconds_per_move")
    warning_before_end = _number("warning_before_end")
    warning_penalty_from = _number("warning_penalty_from")
    solo_value = _number("solo_value")
    solo_min_players = _number("solo_min_players")
    score_required = forms.BooleanField(label=LABELS["score_required"], required=False)
    tie_break = forms.ChoiceField(
        label=LABELS["tie_break"], choices=Tournament._meta.get_field("tie_break").choices
    )
    public_rankings = forms.BooleanField(label=LABELS["public_rankings"], required=False)
    simultaneous = forms.BooleanField(
        label=LABELS["simultaneous"],
        required=False,
        help_text=_("La même partie jouée en même temps dans plusieurs centres (clubs)."),
    )
    language = forms.ChoiceField(
        label=LABELS["language"],
        choices=settings.LANGUAGES,
        help_text=_("Projecteur, tablettes et documents imprimés."),
    )

    def __init__(
        self,
        *args: Any,
        tournament_id: int,
        locked: dict[str, str],
        read_only: bool,
        classic: bool = False,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        if classic:  # the duplicate formula means nothing to a classic tournament
            for name in DUPLICATE_ONLY:
                del self.fields[name]
        self.fields["lexicon_id"].choices = lexicon_choices(tournament_id)
        # The formulas the engine registers (their codes are the engine's to name).
        if "variant_code" in self.fields:
            self.fields["variant_code"].choices = [(c, v.name) for c, v in VARIANTS.items()]
        for name, reason in locked.items():
            if name not in self.fields:
                continue
            self.fields[name].disabled = True
            self.fields[name].help_text = reason
        if read_only:
            for field in self.fields.values():
                field.disabled = True


def settings_initial(tournament: Tournament) -> dict[str, Any]:
    """The form's values from the tournament's row."""
    initial = {name: getattr(tournament, name) for name in TournamentSettingsForm.base_fields}
    lexicon = tournament.lexicon_id
    initial["lexicon_id"] = str(lexicon) if lexicon else default_lexicon_choice()
    return initial


class LexiconUploadForm(forms.Form):
    name = forms.CharField(
        label=_("Nom de la liste"),
        max_length=200,
        required=False,
        help_text=_("Par exemple « ODS 9 du club ». Vide : le nom du fichier."),
    )
    file = forms.FileField(label=_("Liste de mots (texte UTF-8 ou .gz, un mot par ligne)"))


class ArbiterAddForm(forms.Form):
    """An arbiter by user name or e-mail; in a simultaneous event, the centre they arbitrate
    (none: the whole event) and whether they are its head arbiter."""

    login = forms.CharField(label=_("Nom d'utilisateur ou adresse e-mail"), max_length=150)
    centre = forms.TypedChoiceField(label=_("Centre"), required=False, coerce=int,
                                    empty_value=None, choices=())  # fmt: skip
    centre_head = forms.BooleanField(label=_("Juge-arbitre du centre"), required=False)

    def __init__(self, *args: Any, centres: Any = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        if centres:
            choices = [("", _("Tout l'événement"))] + [(str(c.pk), c.name) for c in centres]
            self.fields["centre"].choices = choices
        else:
            del self.fields["centre"], self.fields["centre_head"]


class CentreForm(forms.Form):
    """A centre of a simultaneous event (``centre_create``, ``centre_update``)."""

    name = forms.CharField(label=_("Nom du centre"), max_length=200)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    address = forms.CharField(label=_("Adresse"), max_length=1000, required=False,
                              widget=forms.Textarea(attrs={"rows": 2}))  # fmt: skip
    time_zone = forms.CharField(
        label=_("Fuseau horaire"),
        max_length=64,
        initial="Europe/Paris",
        help_text=_("Par exemple Europe/Paris, America/Montreal."),
    )


class ArbiterChoiceForm(forms.Form):
    user = StrictIntegerField(min_value=1, max_value=2**62)
