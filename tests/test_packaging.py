"""Packaging metadata stays consistent: one version, a valid desktop entry and AppStream file, the icons.

Fast checks of the files under packaging/ (no wheel or bundle is built here; packaging/smoke.sh does that).
"""

from __future__ import annotations

import configparser
import re
import struct
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import dpgui
from dpgui.cli import main
from dpgui.paths import demo_private_path, demo_public_path, resources_dir

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
APP_ID = "io.github.dpgui"
DESKTOP = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"
HICOLOR = PACKAGING / "linux" / "icons" / "hicolor"
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG signature and IHDR chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def test_version_is_read_by_hatch_from_the_package_and_declared_nowhere_else() -> None:
    config = pyproject()
    assert "version" in config["project"]["dynamic"]
    assert "version" not in config["project"]
    assert config["tool"]["hatch"]["version"]["path"] == "dpgui/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+([.-]?\w+)?", dpgui.__version__)
    assert dpgui.__version__ not in (PACKAGING / "dpgui.spec").read_text()


def test_cli_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"dpgui {dpgui.__version__}"


def newest_release_version(metainfo: Path) -> str | None:
    """The version of the first ``<release>`` (AppStream lists releases newest first)."""
    release = ET.parse(metainfo).getroot().find("releases/release")
    return None if release is None else release.get("version")


def test_metainfo_parses_and_its_newest_release_is_the_package_version() -> None:
    assert newest_release_version(METAINFO) == dpgui.__version__
    component = ET.parse(METAINFO).getroot()
    assert component.tag == "component" and component.get("type") == "desktop-application"
    assert component.findtext("id") == APP_ID
    for required in ("name", "summary", "metadata_license", "project_license", "description"):
        assert component.find(required) is not None, required
    assert component.findtext("project_license") == pyproject()["project"]["license"]
    assert component.find("launchable").text == DESKTOP.name
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", component.find("releases/release").get("date", ""))


def test_control_a_metainfo_whose_newest_release_lags_the_version_is_detected(tmp_path: Path) -> None:
    lagging = tmp_path / METAINFO.name
    text = METAINFO.read_text()
    lagging.write_text(text.replace(f'version="{dpgui.__version__}"', 'version="0.0.0-old"', 1))
    assert newest_release_version(lagging) == "0.0.0-old" != dpgui.__version__


def test_desktop_entry_has_the_required_keys_and_launches_the_installed_command() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] and entry["Comment"]
    assert entry["Exec"].split()[0] in pyproject()["project"]["scripts"]
    assert entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false"
    categories = entry["Categories"]
    assert categories.endswith(";") and {"Science", "Office"} <= set(categories.strip(";").split(";"))


def test_icons_exist_at_every_size_and_the_scalable_one_is_the_app_icon() -> None:
    for size in ICON_SIZES:
        assert png_size(HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)
    scalable = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    assert scalable.read_bytes() == (resources_dir() / "icon.svg").read_bytes(), "run render_icons.py"
    assert (PACKAGING / "icons" / "dpgui.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (PACKAGING / "icons" / "dpgui.icns").read_bytes()[:4] == b"icns"


def test_resources_are_found_and_packaged_where_paths_looks_for_them() -> None:
    for path in (demo_private_path(), demo_public_path(), resources_dir() / "icon.svg"):
        assert path.is_file(), path
    hatch = pyproject()["tool"]["hatch"]["build"]["targets"]
    # An installed (or frozen) dpgui finds its resources in the folder next to dpgui/paths.py.
    assert hatch["wheel"]["force-include"] == {"resources": "dpgui/resources"}
    assert {"resources", "README.md", "packaging"} <= set(hatch["sdist"]["include"])
    assert "tests" not in hatch["wheel"]["packages"]
    assert '"dpgui/resources"' in (PACKAGING / "dpgui.spec").read_text()
