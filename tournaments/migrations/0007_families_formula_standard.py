"""The standard duplicate game's code becomes ``standard`` (it was ``classic``, a word the
classic formula, ``engine.classic``, now needs).

Converts the stored codes of tournaments, games and batches, and the columns' default.
Game records (``PreparedGame.record``, exported files) keep the code they were written with:
``engine.duplicate.record`` reads ``classic`` as ``standard``. Reversible."""

from django.db import migrations, models

OLD, NEW = "classic", "standard"
TABLES = ("Tournament", "Game", "BatchJob")


def forward(apps, schema_editor):
    for name in TABLES:
        apps.get_model("tournaments", name).objects.filter(variant_code=OLD).update(
            variant_code=NEW
        )


def backward(apps, schema_editor):
    for name in TABLES:
        apps.get_model("tournaments", name).objects.filter(variant_code=NEW).update(
            variant_code=OLD
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_issue12_score_required_review"),
    ]

    operations = [
        migrations.AlterField(
            model_name="batchjob",
            name="variant_code",
            field=models.CharField(default="standard", max_length=20),
        ),
        migrations.AlterField(
            model_name="game",
            name="variant_code",
            field=models.CharField(default="standard", max_length=20),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="variant_code",
            field=models.CharField(default="standard", max_length=20, verbose_name="formule"),
        ),
        migrations.RunPython(forward, backward, elidable=False),
    ]
