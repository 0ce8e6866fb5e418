"""What the browser tests share: headless Chromium through selenium, the app served in a thread,
and what a screenshot holds.

Chromium and its driver come from the system's packages (``apt-get install chromium
chromium-driver``; ``.ci/run`` installs them).  Where they are absent the browser
tests are skipped, unless ``CI`` or ``DOBBM_REQUIRE_BROWSER`` is set: then they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import threading
import time
import zlib
from contextlib import contextmanager
from typing import Any, Iterator

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_paths() -> tuple[str, str] | None:
    """The browser and its driver, or None when either is missing."""
    driver = shutil.which("chromedriver")
    browser = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    return (browser, driver) if browser and driver else None


def _missing(reason: str) -> None:
    """Skip for ``reason``, or fail where the tests must run (``CI``, ``DOBBM_REQUIRE_BROWSER``)."""
    if os.environ.get("CI") or os.environ.get("DOBBM_REQUIRE_BROWSER"):
        pytest.fail(f"these tests must run here: {reason}")
    pytest.skip(reason)


def need_web() -> None:
    """The web extra (Starlette, uvicorn): skip without it (fail under CI)."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        _missing("dobbm serve needs the web extra: pip install -e '.[test,web]'")


def need_browser() -> tuple[str, str]:
    """The browser and its driver; skip (fail under CI) when they are absent."""
    paths = chromium_paths()
    try:
        import selenium  # noqa: F401
    except ImportError:
        paths = None
    if paths is None:
        _missing("Chromium, chromedriver or selenium is missing: apt-get install chromium chromium-driver; "
                 "pip install -e '.[test,web]'")
    need_web()
    assert paths is not None
    return paths


def make_driver(width: int = 1280, height: int = 1000, *, javascript: bool = True) -> Any:
    """A headless Chromium of the window size given (JavaScript off on request)."""
    browser, driver = need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    chrome = webdriver.Chrome(options=options, service=Service(driver))
    chrome.set_page_load_timeout(30)
    if width < 500:   # a window is at least 500 wide: a phone's screen is emulated
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    return chrome


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(**app_args: Any) -> Iterator[str]:
    """The app served on a free port of 127.0.0.1 in a thread; its address. Always stopped."""
    import uvicorn

    from dobbm_solver.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(**app_args), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        assert server.started, "the app did not start"
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def png_pixels(data: bytes) -> tuple[int, int, list[int]]:
    """A PNG (8-bit RGB or RGBA, as Chromium writes) as width, height and the grey of each pixel."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), f"PNG of depth {depth}, colour type {colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    grey = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        grey += [(line[i] + line[i + 1] + line[i + 2]) // 3 for i in range(0, stride, channels)]
        prev = line
    return width, height, grey


def variance(values: list[int]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)
