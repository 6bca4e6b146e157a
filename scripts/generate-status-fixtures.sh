#!/bin/sh
# Regenerates Fixtures/status/<vendor>.json and the generated blocks of Spec/status-codes/<vendor>.md
# from the status tables in the dialect modules. StatusDriftTests fails until this has been run
# after a table changes. A vendor new to the registry gets a Spec file with empty markers first.
set -eu
cd "$(dirname "$0")/.."
swift build --product imwire >/dev/null
imwire="$(swift build --show-bin-path)/imwire"
mkdir -p Fixtures/status Spec/status-codes
for vendor in $("$imwire" codes --format csv | tail -n +2 | cut -d, -f1 | uniq); do
    "$imwire" codes --vendor "$vendor" --format json > "Fixtures/status/$vendor.json"
    spec="Spec/status-codes/$vendor.md"
    if [ ! -f "$spec" ]; then
        printf '# %s status codes and enums\n\nGenerated from the code; see Spec/status-codes/nim.md for the columns.\n\n<!-- BEGIN GENERATED: status-codes-%s -->\n<!-- END GENERATED: status-codes-%s -->\n' \
            "$vendor" "$vendor" "$vendor" > "$spec"
    fi
    "$imwire" spec --write --file "$spec"
done
