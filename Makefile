# Switchyard: `make run` starts a development server, `make test` runs every test.
# Both install what is missing first (Debian packages with apt-get, npm packages with npm ci).

SHELL := /bin/bash
PORT ?= 8080
# Toolchain for the native modules (better-sqlite3 compiles with node-gyp); Tesseract, with which
# the specimen maker's test reads its own print; zbarimg, a third QR decoder the tests read
# artistic codes with; nginx, which the tests put in front of the server with deploy/nginx.conf;
# fluidsynth and the MuseScore General soundfont, the music engine's instruments; Festival with
# its diphone voice kal and the CMU and POS lexicons, which sing English lyrics; pocketsphinx and
# its US English model, which bench/music-realism.mjs transcribes the sung words with; AR PL
# UMing, WenQuanYi Micro Hei and OCR-B, the type of the field-capture card maker's cards.
DEB_PACKAGES := python3 make g++ pkg-config zbar-tools ffmpeg tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng fonts-wqy-zenhei fonts-dejavu-core fonts-arphic-uming fonts-wqy-microhei fonts-ocr-b nginx fluidsynth musescore-general-soundfont-small festival festvox-kallpc16k festlex-cmu festlex-poslex pocketsphinx pocketsphinx-en-us
# Addons against the running Node's headers: mallopt and malloc_trim for `serve` and `worker`
# (native/malloc.c), the video encoder's conversion of frames to YUV (native/yuv.c) and the PNG
# writer's row filter (native/png.c).
NATIVE_ADDONS := dist/native/malloc.node dist/native/yuv.node dist/native/png.node
SOUNDFONT_SF3 := /usr/share/sounds/sf3/MuseScore_General_Lite.sf3
SOUNDFONT := dist/soundfont
NODE_INCLUDE = $(shell node -p "require('path').resolve(process.execPath, '../../include/node')")
STAMP := node_modules/.installed
# better-sqlite3's addon, compiled from SQLite's source by its install script (no prebuilt binary
# can be downloaded here): about 95 s on one core, so it is built apart from `npm ci` and beside
# the TypeScript builds and checks, which need only its types.
SQLITE_ADDON := node_modules/better-sqlite3/build/Release/better_sqlite3.node
# The console (console/, a Preact app built by Vite), served by the server at /console.
CONSOLE := console/dist/index.html
CONSOLE_SOURCES := $(shell find console/src -type f) console/index.html console/vite.config.ts console/tsconfig.json

.PHONY: setup debian deps build compile run test lint eslint format-check typecheck services browser bench clean

setup: build

debian:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(STAMP): package.json package-lock.json
	@$(MAKE) --no-print-directory debian
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

# Of the install scripts `npm ci` skipped, only better-sqlite3's builds anything that loads:
# msgpackr-extract's and esbuild's prebuilt binaries come as packages, node-llama-cpp's is skipped.
$(SQLITE_ADDON): $(STAMP)
	npm rebuild better-sqlite3
	@touch $@

deps: $(STAMP)

build: deps $(SQLITE_ADDON) $(NATIVE_ADDONS) $(CONSOLE) $(SOUNDFONT) compile

# The TypeScript of src/ into dist/, types stripped file by file (scripts/compile.mjs, esbuild):
# a second, where tsc took half a minute; `make typecheck` checks the types.
compile: deps
	npm run --silent build

$(CONSOLE): $(STAMP) $(CONSOLE_SOURCES)
	npm run console:build

# The soundfont Debian ships compressed (SF3), decompressed once into a file per preset the band
# plays, so that FluidSynth loads only the samples of a part's preset (src/engines/audio/synth/fluidsynth.ts).
$(SOUNDFONT): $(SOUNDFONT_SF3) scripts/soundfont.mjs src/engines/audio/synth/general-midi.ts | $(STAMP)
	node scripts/soundfont.mjs $(SOUNDFONT_SF3) $@

$(SOUNDFONT_SF3):
	@$(MAKE) --no-print-directory debian

dist/native/%.node: native/%.c
	@$(MAKE) --no-print-directory debian
	@mkdir -p $(@D)
	gcc -O3 -Wall -Wextra -shared -fPIC -I$(NODE_INCLUDE) -o $@ $<

run: setup
	@mkdir -p data
	@# A first search finds something: the project's own documentation, indexed again each run.
	@./bin/switchyard search index README.md docs
	@./bin/switchyard token revoke dev >/dev/null 2>&1 || true
	@./bin/switchyard token revoke dev-admin >/dev/null 2>&1 || true
	@token=$$(./bin/switchyard token create --name dev); \
	admin=$$(./bin/switchyard token create --name dev-admin --admin); \
	echo ""; \
	echo "Development tokens (also revoked and replaced by the next 'make run'):"; \
	echo "  client: $$token"; \
	echo "  admin:  $$admin"; \
	echo ""; \
	echo "Try:"; \
	echo "  curl -s http://127.0.0.1:$(PORT)/serp/web -H 'Authorization: Bearer $$token' \\"; \
	echo "       -H 'Content-Type: application/json' -d '{\"query\": \"search channels\"}'"; \
	echo "  curl -s http://127.0.0.1:$(PORT)/admin/api/v1/overview -H 'Authorization: Bearer $$admin'"; \
	echo "API reference: http://127.0.0.1:$(PORT)/docs"; \
	echo "Console (sign in with the admin token): http://127.0.0.1:$(PORT)/console"; \
	echo "Admin API (admin token): http://127.0.0.1:$(PORT)/admin/api/v1 (docs/admin.md)"; \
	echo ""
	exec ./bin/switchyard serve --port $(PORT)

# PostgreSQL and Redis for the tests of the distributed mode: installed when missing, started when
# not running. The tests fail (never skip) when they cannot reach them.
services:
	@command -v pg_ctlcluster >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }
	@command -v redis-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -n1) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || \
	  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
	@# A cluster Debian just made asks loopback connections for a password; the tests send none.
	@scripts/postgres-test-access.sh 5432

lint: eslint format-check

eslint: deps
	npx eslint .

format-check: deps
	npx prettier --check .

typecheck: deps
	npx tsc -p tsconfig.json --noEmit

# The console's tests drive Debian's Chromium (playwright-core's own browser downloads fail here).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

# The builds and the static checks are single-threaded: they run side by side, three at a time,
# each one's output kept together.
test: deps services browser
	@$(MAKE) --no-print-directory -j3 --output-sync=target build typecheck eslint format-check
	npx vitest run

bench: setup
	node bench/overhead.mjs

clean:
	rm -rf dist
