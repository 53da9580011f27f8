#!/usr/bin/env bash
# The page editor's figures (issue 26 item 7) on the 117-page corpus book, in Debian's headless Chromium driven by
# Selenium (python3-selenium: scripts/install-deps bench), median of RUNS (5) runs each:
#   first thumbnail   the page opened → the first thumbnail drawn (performance.now() the editor writes into data-drawn)
#   visible           the page opened → every thumbnail in the window drawn
#                     (both after a first visit: PDF.js and the pages' scripts are in the browser's cache, as they are for
#                     anyone who opens the editor twice; the first visit is a row of its own)
#   save              a full reorder (the 117 pages reversed) posted as the Save button posts it → the new file's editor
#                     page shows every thumbnail in the window (end to end: the job, the redirect, the new PDF fetched and drawn)
# against the raw tools on the same file in the same run: `pdftoppm` of page 1 at the thumbnail's size, and
# `qpdf --pages` of the same reversal. Targets (the issue's): 1 s, 2 s and 2 s.
#   bench/editor.sh     (RUNS=5; FILE=pdf-text/geotopo-117p-linearized-links.pdf; CORPUS=...; JAR=...)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
RUNS="${RUNS:-5}"
FILE="${FILE:-pdf-text/geotopo-117p-linearized-links.pdf}"
bench_service editor DOCAPI_OFFICE_WARM=false
FID="$(curl -fsS -H "Authorization: Bearer $KEY" -H 'Content-Type: application/octet-stream' --data-binary @"$CORPUS/$FILE" \
  "http://127.0.0.1:$PORT/v1/files?name=$(basename "$FILE")" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"

# Debian's Python: python3-selenium is installed for it
/usr/bin/python3 - "$PORT" "$(bench_login_link)" "$FID" "$CORPUS/$FILE" "$RUNS" "$WORK" <<'PY'
import statistics, subprocess, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

port, link, fid, path, runs, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
site = f"http://localhost:{port}"
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for a in ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", f"--user-data-dir={work}/profile"]:
    options.add_argument(a)
browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(browser, 120, poll_frequency=0.05)
try:
    browser.get(link)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait.until(lambda b: "/account" in b.current_url)

    # the times the editor wrote when each thumbnail in the window was drawn, once all of them are
    VISIBLE = """
        const shown = [...document.querySelectorAll('#pages .page')].filter(li => {
          const r = li.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
        return shown.length && shown.every(li => li.dataset.drawn) ? shown.map(li => Number(li.dataset.drawn)) : null;"""

    # where the first thumbnail's time goes: when the page's HTML, PDF.js, its worker and the PDF's bytes had arrived
    ARRIVALS = """
        const end = part => Math.max(0, ...performance.getEntriesByType('resource').filter(e => e.name.includes(part)).map(e => e.responseEnd));
        return [performance.getEntriesByType('navigation')[0].responseEnd, end('pdf.min.mjs'), end('pdf.worker'), end('/content')];"""

    def open_editor():
        browser.get(f"{site}/files/{fid}/edit")
        times = wait.until(lambda b: b.execute_script(VISIBLE))
        return [min(times) / 1000, max(times) / 1000] + [t / 1000 for t in browser.execute_script(ARRIVALS)]

    def save():
        browser.get(f"{site}/files/{fid}/edit")
        wait.until(lambda b: b.execute_script(VISIBLE))
        start = time.perf_counter()
        # what the Save button posts, for the reversed order
        status = browser.execute_async_script("""
            const done = arguments[arguments.length - 1], root = document.getElementById('editor');
            const pages = Array.from({length: Number(arguments[0])}, (_, i) => ({page: Number(arguments[0]) - i, rotation: 0}));
            fetch(root.dataset.save, {method: 'POST', body: JSON.stringify({pages}),
                headers: {'Content-Type': 'application/json', [root.dataset.csrfHeader]: root.dataset.csrf}})
              .then(r => r.json().then(b => done([r.status, b.file])));""", count)
        assert status[0] == 200, status
        browser.get(f"{site}/files/{status[1]}/edit")
        wait.until(lambda b: b.execute_script(VISIBLE))
        return time.perf_counter() - start

    def raw(args):
        t = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t

    count = int(subprocess.run(["qpdf", "--show-npages", path], check=True, capture_output=True, text=True).stdout)
    cold = open_editor()  # the first visit: PDF.js not yet in the browser's cache, the service's JIT cold
    opened = [open_editor() for _ in range(runs)]
    saves = [save() for _ in range(runs)]
    thumb = [raw(["pdftoppm", "-f", "1", "-l", "1", "-scale-to", "160", "-png", path, f"{work}/thumb"]) for _ in range(runs)]
    reorder = [raw(["qpdf", path, "--pages", path, "z-1", "--", f"{work}/reversed.pdf"]) for _ in range(runs)]
    med = statistics.median
    print(f"| figure ({count} pages, median of {runs}) | docapi editor s | target s | raw tool | raw s |")
    print("|---|---:|---:|---|---:|")
    print(f"| first thumbnail after the page opens | {med(o[0] for o in opened):.2f} | 1 | pdftoppm page 1 at 160 px | {med(thumb):.2f} |")
    print(f"| all thumbnails in the window | {med(o[1] for o in opened):.2f} | 2 | | |")
    print(f"| save of a full reorder, end to end | {med(saves):.2f} | 2 | qpdf --pages z-1 | {med(reorder):.2f} |")
    print(f"| first visit (empty cache, one run): first thumbnail / all in the window | {cold[0]:.2f} / {cold[1]:.2f} | | | |")
    print()
    print("| the first thumbnail's time, median s after the page opened | HTML | pdf.min.mjs | pdf.worker | the PDF's bytes | first thumbnail |")
    print("|---|---:|---:|---:|---:|---:|")
    print("| arrived / drawn | " + " | ".join(f"{med(o[i] for o in opened):.2f}" for i in (2, 3, 4, 5, 0)) + " |")
finally:
    browser.quit()
PY
