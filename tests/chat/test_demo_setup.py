"""``manage.py demo_setup``: demo knowledge base and a local-only demo login, idempotent."""

from __future__ import annotations

import shutil
import stat
from io import StringIO
from pathlib import Path
from typing import Any as SettingsWrapper  # pytest-django's settings fixture

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from sources.models import Document
from sources.selectors import index_status

pytestmark = pytest.mark.django_db

DEMO_DOCS = sorted(
    p.name
    for p in (Path(__file__).parents[2] / "sources/demo/docs").iterdir()
    if not p.name.startswith(".")
)


def run() -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("demo_setup", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def data_dir(settings: SettingsWrapper, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    return tmp_path


def test_debug_creates_demo_superuser_and_private_login_file(
    settings: SettingsWrapper, data_dir: Path
) -> None:
    settings.DEBUG = True
    out, _err = run()
    user = get_user_model().objects.get(username="demo")
    login = (data_dir / "demo-login.txt").read_text()
    password = login.split("password: ")[1].strip()
    assert (user.is_superuser, user.check_password(password)) == (True, True)
    assert stat.S_IMODE((data_dir / "demo-login.txt").stat().st_mode) == 0o600
    assert login == f"url: http://127.0.0.1:8000/\nuser: demo\npassword: {password}\n"
    assert "Open http://127.0.0.1:8000/ once the server below logs" in out
    assert f"log in as user: demo  password: {password}" in out
    assert Document.objects.count() == len(DEMO_DOCS) > 0


def test_the_demo_run_creates_the_login_with_debug_off(
    settings: SettingsWrapper, data_dir: Path
) -> None:
    settings.DEBUG, settings.DEMO = False, True
    _out, err = run()
    assert get_user_model().objects.get(username="demo").is_superuser
    assert (data_dir / "demo-login.txt").exists() and "Not creating" not in err


def test_second_run_changes_nothing(settings: SettingsWrapper, data_dir: Path) -> None:
    settings.DEBUG = True
    run()
    login = (data_dir / "demo-login.txt").read_text()
    documents = Document.objects.count()
    out, _err = run()
    password = login.split("password: ")[1].strip()
    assert (data_dir / "demo-login.txt").read_text() == login
    assert get_user_model().objects.get(username="demo").check_password(password)
    assert get_user_model().objects.count() == 1
    assert Document.objects.count() == documents
    assert f"already has {documents} documents" in out
    assert f"password: {password}" in out


def test_without_debug_no_demo_login_is_created(settings: SettingsWrapper, data_dir: Path) -> None:
    settings.DEBUG = False
    _out, err = run()
    assert "Not creating a demo login: KBQA_DEMO and KBQA_DEBUG are off" in err
    assert not get_user_model().objects.filter(username="demo").exists()
    assert not (data_dir / "demo-login.txt").exists()
    assert Document.objects.count() == len(DEMO_DOCS)


def test_missing_index_is_rebuilt_for_an_existing_knowledge_base(
    settings: SettingsWrapper, data_dir: Path
) -> None:
    """A data folder kept across an upgrade (or an index folder removed) would otherwise
    leave `make run` refusing every question for low relevance."""
    settings.DEBUG = True
    run()
    shutil.rmtree(settings.KBQA_INDEX_DIR)
    assert index_status().problem

    out, _err = run()

    assert "no retrieval index" in out.lower() and "building now" in out
    status = index_status()
    assert (status.problem, status.chunks > 0) == ("", True)


def test_an_organisation_can_start_with_its_own_documents_or_none(
    settings: SettingsWrapper, data_dir: Path, tmp_path: Path
) -> None:
    # a tester's own policies landed among the demo's and conflicted with them
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_setup", "--docs", "none", stdout=out, stderr=StringIO())
    assert Document.objects.count() == 0
    assert "starts empty" in out.getvalue()
    own = tmp_path / "own"
    own.mkdir()
    (own / "parking.md").write_text("# Parking\n\nStaff park in garage B.\n", encoding="utf-8")
    call_command("demo_setup", "--docs", str(own), stdout=StringIO(), stderr=StringIO())
    assert list(Document.objects.values_list("title", flat=True)) == ["Parking"]


def test_a_missing_folder_of_documents_is_an_error(data_dir: Path) -> None:
    with pytest.raises(CommandError, match="No such folder"):
        call_command("demo_setup", "--docs", "/nonexistent/folder", stdout=StringIO())
