# Terms stored with each chunk (computed once at ingestion), see sources.indexing.
# Existing rows get terms_version 0 ("never computed"): ``manage.py index_build`` computes
# them and builds the index; nothing is tokenised while migrating.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sources', '0004_document_visibility'),
    ]

    operations = [
        migrations.AddField(
            model_name='chunk',
            name='terms',
            field=models.TextField(blank=True, default='', editable=False, verbose_name='index terms'),
        ),
        migrations.AddField(
            model_name='chunk',
            name='terms_version',
            field=models.PositiveSmallIntegerField(default=0, editable=False, verbose_name='terms version'),
        ),
    ]
