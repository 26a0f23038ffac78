"""A player's withdrawal from the tournament (issue 15, players): from which game and round,
and why; none of the three, or all three with the withdrawal not before the arrival."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_cards"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="withdrawn_game",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="retrait : partie"
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="withdrawn_reason",
            field=models.CharField(blank=True, max_length=500, verbose_name="motif du retrait"),
        ),
        migrations.AddField(
            model_name="registration",
            name="withdrawn_round",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="retrait : coup"),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    withdrawn_game__isnull=True, withdrawn_round__isnull=True, withdrawn_reason=""
                )
                | (
                    models.Q(withdrawn_game__isnull=False, withdrawn_round__isnull=False)
                    & models.Q(withdrawn_game__gte=1, withdrawn_round__gte=1)
                    & ~models.Q(withdrawn_reason="")
                    & (
                        models.Q(withdrawn_game__gt=models.F("arrival_game"))
                        | models.Q(
                            withdrawn_game=models.F("arrival_game"),
                            withdrawn_round__gte=models.F("arrival_round"),
                        )
                    )
                ),
                name="reg_withdrawn",
            ),
        ),
    ]
