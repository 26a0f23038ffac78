# Written for issue 15's left-over: a game announced in N rounds ends normally after round N.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_sealed_release"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rounds_announced",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="coups annoncés"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("rounds_announced__isnull", True),
                    ("rounds_announced__gte", 1),
                    _connector="OR",
                ),
                name="game_rounds_announced",
            ),
        ),
    ]
