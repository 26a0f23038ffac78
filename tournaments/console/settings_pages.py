"""The settings page of a tournament (with a club's word list built by the workers) and its
arbiters page (add by user name or e-mail, remove, hand over, who is connected where), and
the page where a new arbiter chooses a password from their one-time link.

Any arbiter of the tournament reads both pages; only the head arbiter changes anything
(``tournament_update``, ``lexicon_upload``, ``arbiter_add``, ``arbiter_remove``,
``arbiter_handover`` check it again). A refusal is shown on the page with its sentence and
a 4xx status; what was typed stays in the form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services, wording
from tournaments.access import HEAD
from tournaments.console.classic import classic_settings_summary
from tournaments.console.common import (
    error_status,
    error_text,
    found,
    role_or_403,
    tournament_or_404,
)
from tournaments.console.presence import presence_lines
from tournaments.console.settings_forms import (
    DEFAULT,
    ArbiterAddForm,
    ArbiterChoiceForm,
    LexiconUploadForm,
    TournamentSettingsForm,
    settings_initial,
)
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services.arbiters import (
    arbiter_add,
    arbiter_handover,
    arbiter_password_reset,
    arbiter_remove,
)
from tournaments.services.lexicons import MAX_UPLOAD_BYTES, lexicon_upload
from tournaments.services.tournament_settings import LABELS, tournament_update

#: The upload form's prefix: its fields differ from the settings form's (``name``) on one page.
UPLOAD = "liste"


def resolve_lexicon(value: str, actor: Any) -> int:
    """The lexicon id a form's choice names: the site's default file is registered the first
    time it is chosen (``lexicon_register``)."""
    if value == DEFAULT:
        return services.lexicon_register(path=settings.TIRAGE_LEXICON, actor=actor).pk
    return int(value)


# --- Settings -------------------------------------------------------------------------------


def _locked(tournament: Tournament) -> dict[str, str]:
    """Each setting that can no longer change, with the sentence saying why."""
    return {
        field: wording.error_text(ServiceError(code, code, setting=str(LABELS[field]), **where))
        for field, (code, where) in selectors.tournament_settings_locks(tournament.pk).items()
    }


def _settings_context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    role = role_or_403(request, obj.pk)
    locked = _locked(obj)
    event = selectors.classic_event(obj)
    form = extra.pop("form", None) or TournamentSettingsForm(
        initial=settings_initial(obj),
        tournament_id=obj.pk,
        locked=locked,
        read_only=role != HEAD,
        classic=event is not None,
    )
    builds = selectors.lexicon_builds(obj.pk)
    for build in builds:
        refusal = ServiceError(build.error_code, build.error, **(build.error_params or {}))
        build.error_text = wording.error_text(refusal)
    return {
        "tournament": obj,
        "role": role,
        "form": form,
        "locked": locked,
        "upload_form": extra.pop("upload_form", None) or LexiconUploadForm(prefix=UPLOAD),
        "builds": builds,
        "max_words_mb": MAX_UPLOAD_BYTES // 1_048_576,
        "classic": classic_settings_summary(event) if event is not None else None,
        **extra,
    }


SETTINGS_PAGE = "console/settings.html"
ARBITERS_PAGE = "console/arbiters.html"


def head_change(
    request: HttpRequest,
    obj: Tournament,
    *,
    page: str,
    context: Callable[..., dict[str, Any]],
    act: Callable[[Any], HttpResponse],
    form: Callable[[], Any] | None = None,
    invalid: ServiceError | str = "",
    form_key: str = "form",
) -> HttpResponse:
    """A head arbiter's change on the settings or arbiters page, the one way all of them go:
    403 for anyone else; the form (``form()``, when the change has one) checked, an invalid
    one shown again with ``invalid`` (a sentence: 400, or a refusal: its status); then
    ``act(form)``, the service call and its answer, a ``ServiceError`` shown on the page
    with its sentence and status. What was typed stays in the form (under ``form_key``)."""
    role_or_403(request, obj.pk, head=True)
    bound = form() if form is not None else None
    keep = {form_key: bound} if bound is not None else {}

    def refused(text: str, code: str, status: int) -> HttpResponse:
        ctx = context(request, obj, error=text, error_code=code, **keep)
        return render(request, page, ctx, status=status)

    if bound is not None and not bound.is_valid():
        if isinstance(invalid, ServiceError):
            return refused(error_text(invalid), invalid.code, error_status(invalid))
        return refused(invalid, "form.invalid", 400)
    try:
        return act(bound)
    except ServiceError as error:
        return refused(error_text(error), error.code, error_status(error))


@login_required
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: every setting, the locked ones read-only with their reason. POST (head arbiter):
    save what changed through ``tournament_update``."""
    obj = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, SETTINGS_PAGE, _settings_context(request, obj))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})

    def save(form: Any) -> HttpResponse:
        changes = {
            name: value
            for name, value in form.cleaned_data.items()
            if not form.fields[name].disabled
        }
        if "lexicon_id" in changes:
            changes["lexicon_id"] = resolve_lexicon(changes["lexicon_id"], request.user)
        tournament_update(actor=request.user, tournament_id=obj.pk, **changes)
        messages.success(request, _("Réglages enregistrés."))
        return redirect("console:settings", slug=obj.slug)

    return head_change(
        request, obj, page=SETTINGS_PAGE, context=_settings_context, act=save,
        form=lambda: TournamentSettingsForm(request.POST, initial=settings_initial(obj),
                                            tournament_id=obj.pk, locked=_locked(obj),
                                            read_only=False,
                                            classic=selectors.classic_event(obj) is not None),
        invalid=_("Le formulaire contient des erreurs."),
    )  # fmt: skip


@login_required
@require_POST
def lexicon_upload_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Keep the uploaded word list and queue its build (head arbiter); the settings page
    then shows its progress."""
    obj = tournament_or_404(slug)

    def upload(form: Any) -> HttpResponse:
        sent = form.cleaned_data["file"]
        if (sent.size or 0) > MAX_UPLOAD_BYTES:  # refuse before reading it
            raise ServiceError("lexicon.upload_size", "The word list is too large.",
                               limit_mb=MAX_UPLOAD_BYTES // 1_048_576)  # fmt: skip
        lexicon_upload(actor=request.user, tournament_id=obj.pk, name=form.cleaned_data["name"],
                       content=sent.read(), filename=sent.name or "")  # fmt: skip
        messages.success(request, _("Liste reçue : le serveur la compile (environ 15 s)."))
        return redirect("console:settings", slug=obj.slug)

    return head_change(
        request, obj, page=SETTINGS_PAGE, context=_settings_context, act=upload,
        form=lambda: LexiconUploadForm(request.POST, request.FILES, prefix=UPLOAD),
        invalid=_("Choisissez le fichier de la liste de mots."), form_key="upload_form",
    )  # fmt: skip


@login_required
@require_GET
def lexicon_build_status(request: HttpRequest, build_id: int) -> JsonResponse:
    """JSON the settings page polls while a word list is being compiled."""
    build = found(selectors.lexicon_build_by_id(build_id))
    role_or_403(request, build.tournament_id)
    response = JsonResponse(selectors.lexicon_build_progress(build.pk) or {})
    response["Cache-Control"] = "no-store"
    return response


# --- Arbiters -------------------------------------------------------------------------------


def arbiters_context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    centres = selectors.tournament_centres(obj.pk) if obj.simultaneous else []
    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk),
        "arbiters": presence_lines(obj.pk),
        "centres": centres,
        "form": extra.pop("form", None) or ArbiterAddForm(centres=centres),
        **extra,
    }


@login_required
def arbiters(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the arbiters, who is connected on which round. POST (head arbiter): add one by
    user name or e-mail; a new account's one-time link is shown on this answer only."""
    obj = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, ARBITERS_PAGE, arbiters_context(request, obj))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})

    def add(form: Any) -> HttpResponse:
        added = arbiter_add(actor=request.user, tournament_id=obj.pk,
                            login=form.cleaned_data["login"],
                            centre_id=form.cleaned_data.get("centre"),
                            centre_head=bool(form.cleaned_data.get("centre_head")))  # fmt: skip
        user = added.membership.user
        if added.password_path is None:
            messages.success(request, _("%(name)s arbitre ce tournoi.") % {"name": user.username})
            return redirect("console:arbiters", slug=obj.slug)
        ctx = arbiters_context(request, obj, new_user=user, created_user=added.created_user,
                                link=request.build_absolute_uri(added.password_path))  # fmt: skip
        return render(request, ARBITERS_PAGE, ctx)

    return head_change(
        request, obj, page=ARBITERS_PAGE, context=arbiters_context, act=add,
        form=lambda: ArbiterAddForm(
            request.POST,
            centres=selectors.tournament_centres(obj.pk) if obj.simultaneous else [],
        ),
        invalid=ServiceError("arbiter.login", "Give a user name or an e-mail address."),
    )  # fmt: skip


def _chosen(request: HttpRequest) -> int:
    """The arbiter the remove or hand-over form names (``arbiter.unknown`` if none)."""
    form = ArbiterChoiceForm(request.POST)
    if not form.is_valid():
        raise ServiceError("arbiter.unknown", "No arbiter chosen.")
    return form.cleaned_data["user"]


@login_required
@require_POST
def arbiter_remove_view(request: HttpRequest, slug: str) -> HttpResponse:
    obj = tournament_or_404(slug)

    def remove(_form: None) -> HttpResponse:
        arbiter_remove(actor=request.user, tournament_id=obj.pk, user_id=_chosen(request))
        messages.success(request, _("L'arbitre a été retiré du tournoi."))
        return redirect("console:arbiters", slug=obj.slug)

    return head_change(request, obj, page=ARBITERS_PAGE, context=arbiters_context, act=remove)


@login_required
@require_POST
def arbiter_handover_view(request: HttpRequest, slug: str) -> HttpResponse:
    obj = tournament_or_404(slug)

    def hand_over(_form: None) -> HttpResponse:
        target = arbiter_handover(actor=request.user, tournament_id=obj.pk,
                                  user_id=_chosen(request))  # fmt: skip
        messages.success(request, _("%(name)s est maintenant juge-arbitre.")
                         % {"name": target.user.username})  # fmt: skip
        return redirect("console:arbiters", slug=obj.slug)

    return head_change(request, obj, page=ARBITERS_PAGE, context=arbiters_context, act=hand_over)


@login_required
@require_POST
def arbiter_password_view(request: HttpRequest, slug: str) -> HttpResponse:
    """POST (head arbiter): an arbiter who lost their password gets a new one-time link,
    shown on this answer only, as for a new arbiter."""
    obj = tournament_or_404(slug)

    def reset(_form: None) -> HttpResponse:
        done = arbiter_password_reset(actor=request.user, tournament_id=obj.pk,
                                      user_id=_chosen(request))  # fmt: skip
        ctx = arbiters_context(request, obj, new_user=done.membership.user, reset=True,
                                link=request.build_absolute_uri(done.password_path))  # fmt: skip
        return render(request, ARBITERS_PAGE, ctx)

    return head_change(request, obj, page=ARBITERS_PAGE, context=arbiters_context, act=reset)


# --- A new arbiter's password ---------------------------------------------------------------


class PasswordSetView(auth_views.PasswordResetConfirmView):
    """Django's password-reset page, in the console's look and in French: the one-time link
    ``arbiter_add`` gives lands here. A used or wrong link answers 404 with its reason."""

    template_name = "console/password_set.html"
    success_url = reverse_lazy("console:login")
    post_reset_login = False

    def form_valid(self, form: Any) -> HttpResponse:
        messages.success(self.request, _("Mot de passe enregistré : connectez-vous."))
        return super().form_valid(form)

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not self.validlink:
            kwargs["status"] = 404
        return super().render_to_response(context, **kwargs)
