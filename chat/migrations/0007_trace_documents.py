"""The documents each trace used, for the reviewer list's filter (``chat.trace_access``),
filled from the stored traces' JSON."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from chat.trace_access import trace_documents_fill


def fill(apps: Any, schema_editor: Any) -> None:
    trace_documents_fill(apps.get_model("chat", "Trace"), apps.get_model("chat", "TraceDocument"))


class Migration(migrations.Migration):

    dependencies = [
        ('chat', '0006_conversation_via_api'),
    ]

    operations = [
        migrations.CreateModel(
            name='TraceDocument',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('doc_id', models.CharField(db_index=True, max_length=100, verbose_name='doc id')),
                ('trace', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='documents', to='chat.trace', verbose_name='trace')),
            ],
            options={
                'verbose_name': 'document of a trace',
                'verbose_name_plural': 'documents of traces',
                'constraints': [models.UniqueConstraint(fields=('trace', 'doc_id'), name='chat_trace_document_once')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
