package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// parseErrs runs Parse and returns its field errors (failing the test if
// the error is not an Errors list).
func parseErrs(t *testing.T, doc string) Errors {
	t.Helper()
	_, err := Parse([]byte(doc))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("%s: error %v, want Errors", doc, err)
	}
	return errs
}

// One document with an unknown field, a value of the wrong type, a value out
// of range and a value outside an enum gets all four errors at once
// (the validator returns the list, not just the first), each naming its field,
// and the errors of a wrong type name the value given and what is allowed.
func TestParseListsUnknownTypeRangeAndEnumErrorsTogether(t *testing.T) {
	doc := `{"bogus": 1, "topology": {"h": 0}, "traffic": {"load": "high", "pattern": "XX"}}`
	errs := parseErrs(t, doc)
	for _, w := range []struct{ path, value, inMsg string }{
		{"bogus", "", "unknown field"},
		{"traffic.load", `"high"`, "wrong type: expected a number in [0, 1], got a string"},
		{"topology.h", "0", "[1, 32]"},
		{"traffic.pattern", "XX", "one of UN, ADV"},
	} {
		e, ok := btHasPath(errs, w.path)
		if !ok {
			t.Errorf("no error on %s: %v", w.path, errs)
			continue
		}
		if e.Value != w.value || !strings.Contains(e.Msg, w.inMsg) || !strings.HasPrefix(e.Error(), w.path) {
			t.Errorf("%s: %q (value %q), want value %q and …%s…", w.path, e.Error(), e.Value, w.value, w.inMsg)
		}
	}
	if len(errs) != 4 {
		t.Errorf("%d errors, want 4: %v", len(errs), errs)
	}
	// deterministic: the same list every time, decoding errors sorted by path
	// before Validate's
	for i := 0; i < 5; i++ {
		if again := parseErrs(t, doc); !reflect.DeepEqual(again, errs) {
			t.Fatalf("run %d: %v, first %v", i, again, errs)
		}
	}
	if errs[0].Path != "bogus" || errs[1].Path != "traffic.load" {
		t.Errorf("order %v", errs)
	}

	// the audit's cases: an unknown field no longer hides a range error, a
	// type error no longer hides an enum or a range error elsewhere
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{`{"topology":{"h":0},"bogus":1}`, []string{"bogus", "topology.h"}},
		{`{"traffic":{"load":"x","pattern":"XX"},"sim":{"cycles":0}}`, []string{"traffic.load", "traffic.pattern", "sim.cycles"}},
		{`{"sim":{"cycles":"many","seedz":2},"router":{"bogus":{"x":1},"speedup":0}}`, []string{"sim.cycles", "sim.seedz", "router.bogus", "router.speedup"}},
	} {
		errs := parseErrs(t, tc.doc)
		for _, p := range tc.want {
			if _, ok := btHasPath(errs, p); !ok {
				t.Errorf("%s: no error on %s: %v", tc.doc, p, errs)
			}
		}
		if len(errs) != len(tc.want) {
			t.Errorf("%s: %d errors, want %d: %v", tc.doc, len(errs), len(tc.want), errs)
		}
	}
}

// A value of the wrong JSON type names the field, the value as written
// (shortened when long) and what the field accepts; the field keeps its
// default and the rest of the document is decoded.
func TestDecodeWrongTypesNameValueAndAllowedRange(t *testing.T) {
	long := `"` + strings.Repeat("x", 100) + `"`
	for _, tc := range []struct {
		doc, path, value, inMsg string
	}{
		{`{"topology": {"h": 4.5}}`, "topology.h", "4.5", "expected a whole number in [1, 32], got a fractional number"},
		{`{"topology": {"h": 4.0}}`, "topology.h", "4.0", "decimal point or exponent"},
		{`{"topology": {"h": "4"}}`, "topology.h", `"4"`, "expected a whole number in [1, 32], got a string"},
		{`{"topology": {"a": 1e30}}`, "topology.a", "1e30", "in [1, 64], got a number out of range"},
		{`{"sim": {"seed": -1}}`, "sim.seed", "-1", "expected a whole number ≥ 0, got a negative number"},
		{`{"sim": {"warmup": true}}`, "sim.warmup", "true", "in [0, 100000000], got a boolean"},
		{`{"traffic": {"load": 1e999}}`, "traffic.load", "1e999", "expected a number in [0, 1], got a number out of range"},
		{`{"traffic": {"load": [0.1, 0.2]}}`, "traffic.load", "[0.1,0.2]", "got an array"},
		{`{"traffic": {"reactive": "yes"}}`, "traffic.reactive", `"yes"`, "expected true or false, got a string"},
		{`{"traffic": {"pattern": 3}}`, "traffic.pattern", "3", "expected a string, one of UN, ADV, ADVC"},
		{`{"routing": {"name": {"x": 1}}}`, "routing.name", `{"x":1}`, "got an object"},
		{`{"name": ` + long + `}`, "", "", ""}, // a long string is a valid name
		{`{"name": 7}`, "name", "7", "expected a string, got a number"},
		{`{"traffic": {"load": ` + long + `}}`, "traffic.load", `"` + strings.Repeat("x", 38) + "…", "got a string"},
		{`{"router": 5}`, "router", "5", "expected an object (the router section), got a number"},
		{`{"version": "1"}`, "version", `"1"`, "expected a whole number in [1, 1]"},
		{`[1, 2]`, "(document)", "[1,2]", "expected a JSON object"},
		{`{"topology": `, "(document)", "", "not valid JSON"},
	} {
		c, err := Decode([]byte(tc.doc))
		if tc.path == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.doc, err)
			}
			continue
		}
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 {
			t.Errorf("%s: %v, want one field error", tc.doc, err)
			continue
		}
		e := errs[0]
		if e.Path != tc.path || e.Value != tc.value || !strings.Contains(e.Msg, tc.inMsg) {
			t.Errorf("%s: %q, want path %s, value %q, …%s…", tc.doc, e.Error(), tc.path, tc.value, tc.inMsg)
		}
		if tc.path != "(document)" && !reflect.DeepEqual(c, Default()) {
			t.Errorf("%s: the rejected value changed the config", tc.doc)
		}
	}

	// the valid remainder is decoded: only the wrong-typed field keeps its default
	c, err := Decode([]byte(`{"traffic": {"load": "high", "pattern": "ADV", "extra": 1}, "topology": {"h": 2, "a": 4, "p": 2}}`))
	if err == nil || c.Traffic.Pattern != "ADV" || c.Topology.H != 2 || c.Topology.P != 2 || c.Traffic.Load != Default().Traffic.Load {
		t.Errorf("remainder not decoded: %v, %+v %+v", err, c.Traffic, c.Topology)
	}
	// null is no value: the default stays, as encoding/json does
	if c, err := Parse([]byte(`{"traffic": {"load": null}, "sim": null}`)); err != nil || !reflect.DeepEqual(c, Default()) {
		t.Errorf("null: %v", err)
	}
	// a valid document decodes with no error at all (not a nil Errors in an interface)
	d := Default()
	if _, err := Decode(d.JSON()); err != nil {
		t.Errorf("Decode(Default): %v", err)
	}
	if _, err := Parse(d.JSON()); err != nil {
		t.Errorf("Parse(Default): %v", err)
	}
}

// Field names are matched exactly (encoding/json alone would accept "H" for
// "h"); a near miss is reported with the name probably meant.
func TestUnknownFieldsSuggestTheKnownName(t *testing.T) {
	for _, tc := range []struct{ doc, path, inMsg string }{
		{`{"topology": {"H": 2}}`, "topology.H", `did you mean "h"?`},
		{`{"traffic": {"lod": 0.2}}`, "traffic.lod", `did you mean "load"?`},
		{`{"Traffic": {}}`, "Traffic", `did you mean "traffic"?`},
		{`{"router": {"colour": "red"}}`, "router.colour", "unknown field"},
	} {
		errs := parseErrs(t, tc.doc)
		e, ok := btHasPath(errs, tc.path)
		if !ok || len(errs) != 1 || !strings.Contains(e.Msg, tc.inMsg) {
			t.Errorf("%s: %v, want %s: …%s…", tc.doc, errs, tc.path, tc.inMsg)
		}
	}
	if e, _ := btHasPath(parseErrs(t, `{"router": {"colour": "red"}}`), "router.colour"); strings.Contains(e.Msg, "mean") {
		t.Errorf("far-fetched suggestion: %v", e)
	}
}

// Set (CLI -set, URLs) names the path and the value, and says what was
// probably meant: a section, a misspelt path, a field without its section.
func TestSetUnknownPathSaysWhatWasMeant(t *testing.T) {
	c := Default()
	for _, tc := range []struct{ path, inMsg string }{
		{"traffic.lod", "did you mean traffic.load?"},
		{"traffic", "traffic is a section: set one of its fields, e.g. traffic.pattern"},
		{"h", "did you mean topology.h?"},
		{"Routing.Name", "did you mean routing.name?"},
		{"x.y", "see 'phitsim params'"},
	} {
		err := c.Set(tc.path, "1")
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc.path || fe.Value != "1" || !strings.Contains(fe.Msg, "unknown parameter") || !strings.Contains(fe.Msg, tc.inMsg) {
			t.Errorf("Set(%q): %v, want …%s…", tc.path, err, tc.inMsg)
		}
	}
}

// Regression: a key given twice was accepted silently (encoding/json keeps
// the last value). It is refused, naming the key's dotted path and where
// the repetition is, at any depth, including the top level; the rest of the
// document is still checked.
func TestDuplicateKeysAreRefusedNamingThePath(t *testing.T) {
	for _, tc := range []struct{ doc, path, at string }{
		{`{"traffic":{"load":0.1,"load":0.2}}`, "traffic.load", "line 1, column 24"},
		{"{\n  \"name\": \"a\",\n  \"name\": \"b\"\n}", "name", "line 3, column 3"},
		{"{\"sim\": {\"seeds\": 2},\n \"router\": {},\n \"sim\": {\"cycles\": 5}}", "sim", "line 3, column 2"},
		{`{"topology":{"h":2,"a":4,"h":2}}`, "topology.h", "line 1, column 26"},
		{`{"bogus":{"x":1,"x":2}}`, "bogus.x", "line 1, column 17"},
	} {
		errs := parseErrs(t, tc.doc)
		e, ok := btHasPath(errs, tc.path)
		if !ok {
			t.Errorf("%s: no error on %s: %v", tc.doc, tc.path, errs)
			continue
		}
		if !strings.Contains(e.Msg, "duplicate key") || !strings.Contains(e.Msg, tc.at) {
			t.Errorf("%s: %q, want a duplicate key at %s", tc.doc, e.Error(), tc.at)
		}
		if _, err := Decode([]byte(tc.doc)); err == nil {
			t.Errorf("%s: Decode accepted it", tc.doc)
		}
	}
	// the same key in two sections is no duplicate
	if _, err := Parse([]byte(`{"topology":{"kind":"dragonfly"},"workload":{"kind":"synthetic"}}`)); err != nil {
		t.Errorf("same key in two sections: %v", err)
	}
	// a duplicate does not hide the other errors
	errs := parseErrs(t, `{"traffic":{"load":0.1,"load":7},"topology":{"h":0}}`)
	for _, p := range []string{"traffic.load", "topology.h"} {
		if _, ok := btHasPath(errs, p); !ok {
			t.Errorf("no error on %s: %v", p, errs)
		}
	}
}

// Regression: malformed JSON reported no position. It gives the line and
// the column (in characters, 1-based) of the offending character.
func TestMalformedJSONGivesLineAndColumn(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"{\n  \"traffic\": {\n    \"load\": 0.1,}\n}", "line 3, column 17: invalid character '}'"},
		{"{\"a\": 1 \"b\": 2}", "line 1, column 9: invalid character '\"' after object key:value pair"},
		{"{\"é\": \"ü\", x}", "line 1, column 12: invalid character 'x'"},
		{"{\n\"traffic\": {", "line 2, column 13: unexpected end of JSON input"},
		{"", "line 1, column 1: unexpected end of JSON input"},
	} {
		_, err := Decode([]byte(tc.doc))
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Path != "(document)" || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%q: %v, want …%s…", tc.doc, err, tc.want)
		}
	}
}
