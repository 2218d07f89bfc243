# Reads classes/classes.tsv (the first file; its header says what each field is) and writes
# what is made from it, chosen by -v what=:
#   swift     the Swift SoundClass: cases, index, descriptor (scripts/embed-classes.sh)
#   looks     the Swift of a class's colour and words, Palette.swatch, EventWords.name, one
#             and sensor (scripts/embed-class-looks.sh, into SomniqReports)
#   schema    FILE (the second file) with its $defs.class.enum made the classes
#   dict      FILE with the lines between its "# The classes" and "# (end of the classes)"
#             comments made the class names (-v quoted=1: each as a JSON string, "\"name\"")
#   trainer   FILE (tools/learn/train.py) with its CANDIDATES made the learned classes
#   docs      FILE with the rows of its "| tier | classes |" table made the classes of each
#             tier (-v notes=1: each with its note in brackets)
# A malformed line of the classes, or a FILE without its list, is an error naming it (exit 2).
# scripts/classes.sh and scripts/embed-classes.sh run it; POSIX awk.

function fail(message) {
    printf "%s\n", message > "/dev/stderr"
    failed = 1
    exit 2
}

# The line `prefix` + `items` separated by ", " and closed by `closer`, wrapped before an item
# that would take a line past 119 columns, each line after the first indented to the prefix.
function wrapped(prefix, items, count, closer,    line, i, item, out, indent) {
    indent = sprintf("%" length(prefix) "s", "")
    line = prefix
    out = ""
    for (i = 1; i <= count; i++) {
        item = items[i] (i < count ? "," : closer)
        if (line != prefix && line != indent && length(line) + 1 + length(item) > 119) {
            out = out line "\n"
            line = indent
        }
        line = line ((line == prefix || line == indent) ? "" : " ") item
    }
    return out line
}

BEGIN {
    FS = "\t"
    tiers = "critical high medium low"
    ntier = split(tiers, tierNames, " ")
    nprop = split("train short habituated learned derived", propNames, " ")
    colours = "black orange skyBlue bluishGreen yellow blue vermillion reddishPurple slate"
    # Home Assistant's binary sensor device classes a sound may be
    # (https://www.home-assistant.io/integrations/binary_sensor/#device-class).
    sensors = "smoke sound"
    n = 0
}

FNR == NR {
    if ($0 ~ /^#/ || $0 == "") next
    where = FILENAME ":" FNR ": "
    if (NF != 11) fail(where "has " NF " fields separated by tabs, not 11 (class, case, tier, usual_s, properties, hook, colour, words, one, sensor, note)")
    if ($1 !~ /^[a-z][a-z0-9_]*$/) fail(where "the class \"" $1 "\" is not lower case letters, digits and _")
    if ($2 !~ /^[a-z][A-Za-z0-9]*$/) fail(where "the case \"" $2 "\" is not a Swift name in lower camel case")
    if (index(" " tiers " ", " " $3 " ") == 0 || $3 == "") fail(where "the tier \"" $3 "\" is none of " tiers)
    if ($4 !~ /^[0-9]+(\.[0-9]+)?$/) fail(where "usual_s \"" $4 "\" is not a number of seconds")
    if ($6 != "-" && $6 !~ /^[a-z][A-Za-z0-9]*$/) fail(where "the hook \"" $6 "\" is not a Swift name in lower camel case")
    k = split($7, look, " ")
    if (k < 1 || k > 2 || index(" " colours " ", " " look[1] " ") == 0 || (k == 2 && look[2] != "hatched"))
        fail(where "the colour \"" $7 "\" is not one of " colours ", then hatched or not")
    if ($8 ~ /["\\]/ || $8 == "") fail(where "the words \"" $8 "\" are empty or hold a quote or a backslash")
    if ($9 ~ /["\\]/ || $9 == "" || $9 == "-") fail(where "one \"" $9 "\" is empty, - or holds a quote or a backslash")
    if (index(" " sensors " ", " " $10 " ") == 0 || $10 == "") fail(where "the sensor \"" $10 "\" is none of " sensors)
    if ($1 in seen) fail(where "the class " $1 " is listed twice")
    if ($2 in seenCase) fail(where "the case " $2 " is listed twice")
    seen[$1] = 1
    seenCase[$2] = 1
    n++
    name[n] = $1; swiftCase[n] = $2; tier[n] = $3; usual[n] = $4; hook[n] = $6; note[n] = $11; sensor[n] = $10
    colour[n] = look[1]; hatched[n] = (k == 2); one[n] = $9
    words[n] = $8
    if (words[n] == "-") { words[n] = $1; gsub(/_/, " ", words[n]) }
    if ($5 != "-") {
        k = split($5, props, ",")
        for (j = 1; j <= k; j++) {
            known = 0
            for (p = 1; p <= nprop; p++) if (props[j] == propNames[p]) known = 1
            if (!known) fail(where "the property \"" props[j] "\" is none of train, short, habituated, learned, derived")
            prop[n, props[j]] = 1
        }
    }
    next
}

# The target file, a line at a time (every mode but swift).
{
    if (skipping) {
        if (what == "docs" && $0 !~ /^\| /) { skipping = 0; done = 1; print; next }
        if (what == "dict" && $0 == "# (end of the classes)") { skipping = 0; done = 1; print; next }
        if ((what == "trainer" || (what == "schema" && !perLine)) && index($0, "]")) { skipping = 0; done = 1; next }
        if (what == "schema" && perLine && $0 ~ /^ *\]/) { skipping = 0; done = 1; print; next }
        next
    }
    if (what == "schema" && !done && $0 ~ /^ *"class": \{$/) inClass = 1
    if (what == "schema" && inClass && !done && match($0, /^ *"enum": \[/)) {
        inClass = 0
        perLine = ($0 ~ /\[$/)
        if (perLine) {
            print
            indent = sprintf("%" (RLENGTH - length("\"enum\": [")) + 2 "s", "")
            for (i = 1; i <= n; i++) print indent "\"" name[i] "\"" (i < n ? "," : "")
        } else {
            for (i = 1; i <= n; i++) items[i] = "\"" name[i] "\""
            print wrapped(substr($0, 1, RLENGTH), items, n, "]")
            if (index($0, "]")) { done = 1; next }
        }
        skipping = 1
        next
    }
    if (what == "dict" && !done && $0 ~ /^# The classes/) {
        print
        for (i = 1; i <= n; i++) print (quoted ? "\"\\\"" name[i] "\\\"\"" : "\"" name[i] "\"")
        skipping = 1
        next
    }
    if (what == "trainer" && !done && $0 ~ /^CANDIDATES = \[/) {
        k = 0
        for (i = 1; i <= n; i++) if (prop[i, "learned"]) items[++k] = "\"" name[i] "\""
        print wrapped("CANDIDATES = [", items, k, "]")
        if (index($0, "]")) { done = 1; next }
        skipping = 1
        next
    }
    if (what == "docs" && !done && previous == "| tier | classes |" && $0 == "|---|---|") {
        print
        for (t = 1; t <= ntier; t++) {
            row = "| " tierNames[t] " |"
            first = 1
            for (i = 1; i <= n; i++) {
                if (tier[i] != tierNames[t]) continue
                row = row (first ? " " : ", ") "`" name[i] "`" ((notes && note[i] != "-") ? " (" note[i] ")" : "")
                first = 0
            }
            print row " |"
        }
        skipping = 1
        next
    }
    previous = $0
    print
}

END {
    if (failed) exit 2
    if (what == "swift") {
        print "// Generated at build time by scripts/embed-classes.sh from classes/classes.tsv. Do not edit."
        print ""
        print "/// The sounds somniq recognises, in label order: one line each of classes/classes.tsv,"
        print "/// which holds each one's descriptor too. Raw values are the stable identifiers used in"
        print "/// profiles, logs and label files."
        print "public enum SoundClass: String, CaseIterable, Sendable {"
        for (i = 1; i <= n; i++) {
            if (note[i] != "-") print "    /// " toupper(substr(note[i], 1, 1)) substr(note[i], 2) "."
            print "    case " swiftCase[i] " = \"" name[i] "\""
        }
        print ""
        print "    /// Position in `allCases`, used to index per-class arrays (a switch: no hashing)."
        print "    public var index: Int {"
        print "        switch self {"
        for (i = 1; i <= n; i++) print "        case ." swiftCase[i] ": " (i - 1)
        print "        }"
        print "    }"
        print ""
        print "    /// The class's descriptor (`Descriptor` says what each field means)."
        print "    public var descriptor: Descriptor {"
        print "        switch self {"
        for (i = 1; i <= n; i++) {
            d = "Descriptor(tier: ." tier[i] ", usualSeconds: " usual[i]
            for (p = 1; p <= nprop; p++) if (prop[i, propNames[p]]) d = d ", " propNames[p] ": true"
            if (hook[i] != "-") d = d ", hook: ." hook[i]
            print "        case ." swiftCase[i] ": " d ")"
        }
        print "        }"
        print "    }"
        print "}"
        exit 0
    }
    if (what == "looks") {
        print "// Generated at build time by scripts/embed-class-looks.sh from classes/classes.tsv. Do not edit."
        print ""
        print "import SomniqCore"
        print ""
        print "extension Palette {"
        print "    /// How class `c` is drawn: its colour and whether it is hatched (classes/classes.tsv's"
        print "    /// `colour`)."
        print "    public static func swatch(_ c: SoundClass) -> Swatch {"
        print "        switch c {"
        for (i = 1; i <= n; i++)
            print "        case ." swiftCase[i] ": Swatch(colour: " colour[i] ", hatched: " (hatched[i] ? "true" : "false") ")"
        print "        }"
        print "    }"
        print "}"
        print ""
        print "extension EventWords {"
        print "    /// What a person calls class `c`: \"cough\", \"smoke alarm\", \"low-battery chirp\""
        print "    /// (classes/classes.tsv's `words`)."
        print "    public static func name(_ c: SoundClass) -> String {"
        print "        switch c {"
        for (i = 1; i <= n; i++) print "        case ." swiftCase[i] ": \"" words[i] "\""
        print "        }"
        print "    }"
        print ""
        print "    /// \"a dog bark\", \"snoring\": the class as a sentence names one of it (classes/classes.tsv's"
        print "    /// `one`)."
        print "    public static func one(_ c: SoundClass) -> String {"
        print "        switch c {"
        for (i = 1; i <= n; i++) print "        case ." swiftCase[i] ": \"" one[i] "\""
        print "        }"
        print "    }"
        print ""
        print "    /// The device class of class `c`'s Home Assistant binary sensor: \"smoke\", \"sound\""
        print "    /// (classes/classes.tsv's `sensor`)."
        print "    public static func sensor(_ c: SoundClass) -> String {"
        print "        switch c {"
        for (i = 1; i <= n; i++) print "        case ." swiftCase[i] ": \"" sensor[i] "\""
        print "        }"
        print "    }"
        print "}"
        exit 0
    }
    if (!done) fail(FILENAME ": no list of the classes found to write (" what ")")
}
