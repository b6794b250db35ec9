# Who could read a purged chunk, so its tombstone says "purged" only to them (sources.views).
# Tombstones from before this migration did not record it: they get the label of a document
# nobody but administrators reads ("-", sources.selectors.NO_GROUP), never "everyone".

from django.db import migrations, models


def unknown_access_is_restricted(apps, schema_editor):
    apps.get_model("sources", "PurgedChunk").objects.update(access=["-"])


class Migration(migrations.Migration):

    dependencies = [
        ("sources", "0005_chunk_terms"),
    ]

    operations = [
        migrations.AddField(
            model_name="purgedchunk",
            name="access",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(unknown_access_is_restricted, migrations.RunPython.noop),
    ]
