# Named, timed steps that all run, and one summary of every failure.
#
# Sourced by scripts/test and .ci/run (bash). A step that fails does not
# stop the ones after it, so that one failure never hides another; the
# summary names each failed step and, for cargo, each failed target
# (cargo test --no-fail-fast lists them as `-p <crate> --test <name>`) and
# each crate that did not compile.
#
#   step "name" command args...    run one step, timed
#   steps_report "what" BUDGET_S   the times, the failures, the budget
#                                  check; returns 1 if any step failed

say() { printf '\n== %s\n' "$*"; }

steps_failed=()
steps_failed_targets=()
steps_times=()
steps_started=$SECONDS

# 1h02m03s, 4m05s or 6s.
steps_duration() {
    local s=$1
    if [ "$s" -ge 3600 ]; then
        printf '%dh%02dm%02ds' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    elif [ "$s" -ge 60 ]; then
        printf '%dm%02ds' $((s / 60)) $((s % 60))
    else
        printf '%ds' "$s"
    fi
}

# The failed targets in a cargo log: the list that `--no-fail-fast` ends
# with, the single target of a run that had one, and every crate or target
# that failed to compile. One per line, as cargo writes them.
steps_cargo_failures() {
    awk '
        /^error: [0-9]+ targets? failed:/ { listing = 1; next }
        listing && /^ +`/ { sub(/^ +/, ""); print; next }
        { listing = 0 }
        /^error: test failed, to rerun pass / {
            sub(/^error: test failed, to rerun pass /, ""); print
        }
        /^error: could not compile / { sub(/^error: /, ""); print }
    ' "$1" | sort -u
}

step() {
    local name=$1
    shift
    say "$name"
    local log start rc took
    log=$(mktemp "${TMPDIR:-/tmp}/ballot-step.XXXXXX")
    start=$SECONDS
    # The output still streams; a copy is kept to find cargo's failed
    # targets in.
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    took=$((SECONDS - start))
    steps_times+=("$(printf '%9s  %s' "$(steps_duration "$took")" "$name")")
    if [ "$rc" -ne 0 ]; then
        steps_failed+=("$name")
        local target
        while IFS= read -r target; do
            [ -n "$target" ] && steps_failed_targets+=("$name: $target")
        done < <(steps_cargo_failures "$log")
        printf '\n== FAILED (exit %d, after %s): %s\n' "$rc" "$(steps_duration "$took")" "$name"
    fi
    rm -f "$log"
    return 0
}

steps_report() {
    local what=$1 budget=$2 total
    total=$((SECONDS - steps_started))
    say "times"
    printf '%s\n' "${steps_times[@]}"
    printf '%9s  %s (budget %s)\n' "$(steps_duration "$total")" "$what, in all" \
        "$(steps_duration "$budget")"
    if [ "$total" -gt "$budget" ]; then
        echo
        echo "WARNING: $what took $(steps_duration "$total"), past its budget of" \
            "$(steps_duration "$budget") (docs/performance.md, \"How long the tests take\")"
    fi
    if [ ${#steps_failed[@]} -gt 0 ]; then
        echo
        echo "FAILED: ${#steps_failed[@]} step(s):"
        printf '    %s\n' "${steps_failed[@]}"
        if [ ${#steps_failed_targets[@]} -gt 0 ]; then
            echo "failed targets:"
            printf '    %s\n' "${steps_failed_targets[@]}"
        fi
        return 1
    fi
    return 0
}
