package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The decoders never panic, report every problem as a named FieldError, and
// whatever validates round-trips through JSON() to an equal config.

func FuzzDecode(f *testing.F) {
	for _, p := range Presets() {
		f.Add(p.Config.JSON())
	}
	for _, s := range []string{
		``, `null`, `{}`, `[]`, `"x"`, `{"traffic":{"load":0.1,"load":0.2}}`,
		"{\n  \"traffic\": {\n    \"load\": 0.1,}\n}", `{"topology":{"h":1e400}}`,
		`{"sim":{"seed":18446744073709551615}}`, `{"sim":{"seed":-1}}`, `{"router":null}`,
		`{"workload":{"kind":"graph500","tq":0}}`, `{"name":"\ud800"}`, `{"bogus":{"x":[1,{"y":2}]}}`,
		`{"a":{"\u0062":1,"b":2},"a":[[{"c":1,"c":"}"}],{"d\"":0,"d\"":1}]}`, "{\"\xff\":1,\"\xfe\":2}",
		`{"topology":{"kind":"fattree","k":4,"stages":3},"congestion":{"scheme":"recn"},"router":{"queueing":"4q","localVCs":1,"injectionVCs":1}}`,
		`{"topology":{"kind":"fbfly","dimensions":1,"k":4,"p":4},"traffic":{"pattern":"HOTSPOT","hotspotSenders":"0,,5","hotspotBackground":"un"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) {
			var got []string
			for _, e := range duplicateKeys(data) {
				got = append(got, e.Path)
			}
			if want := duplicateKeysByTokens(data); !reflect.DeepEqual(got, want) {
				t.Fatalf("duplicate keys %q, the decoder's tokens give %q", got, want)
			}
		}
		c, err := Parse(data)
		if err != nil {
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("Parse error %v (%T), want a non-empty Errors", err, err)
			}
			for _, e := range errs {
				if e.Path == "" || e.Msg == "" {
					t.Fatalf("error without a path or a message: %#v", e)
				}
			}
			return
		}
		// a document may be any JSON; the config it validates to is
		// written and read back unchanged
		back, err := Parse(c.JSON())
		if err != nil {
			t.Fatalf("%s validated, its JSON does not: %v\n%s", data, err, c.JSON())
		}
		if back != c {
			t.Fatalf("round trip changed the config:\n%s\n%s", c.JSON(), back.JSON())
		}
		if !bytes.Equal(back.JSON(), c.JSON()) {
			t.Fatal("JSON not stable")
		}
	})
}

func FuzzSet(f *testing.F) {
	for _, p := range Params() {
		c := Default()
		f.Add(p.Path, p.Format(&c))
		if p.Min != nil {
			f.Add(p.Path, "-1e309")
		}
	}
	for _, s := range [][2]string{
		{"traffic.load", "abc"}, {"traffic.load", "NaN"}, {"traffic.load", "0x1p-2"}, {"sim.seed", "18446744073709551616"},
		{"topology", "2"}, {"load", "0.1"}, {"name", "\xff"}, {"sim.seeds", " 3 "}, {"router.speedup", "Inf"},
		{"sim.warmup", "auto"}, {"sim.warmup", "autos"},
		// the HOTSPOT and RECN fields' shapes: empty and padded senders, a
		// sign, case variants of enums, bytes past the packet
		{"traffic.hotspotSenders", "0,,5"}, {"traffic.hotspotSenders", " 1, 2 ,"}, {"traffic.hotspotSenders", "+3"},
		{"traffic.hotspotSenders", "0x10"}, {"traffic.hotspotBackground", "un"}, {"router.queueing", "VOQNET"},
		{"congestion.recnCrossbar", "peroutput"}, {"congestion.recnDetect", "1"}, {"topology.subtrees", "3"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, path, value string) {
		c := Default()
		err := c.Set(path, value)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Path != path || fe.Msg == "" {
				t.Fatalf("Set(%q, %q): %v, want a FieldError naming the path", path, value, err)
			}
			if c != Default() {
				t.Fatalf("Set(%q, %q) failed and changed the config", path, value)
			}
			return
		}
		if errs := c.Validate(); len(errs) > 0 {
			for _, e := range errs {
				if e.Path == "" || e.Msg == "" {
					t.Fatalf("error without a path or a message: %#v", e)
				}
			}
			return
		}
		// what validates survives JSON and the value's own rendering (URLs,
		// CSV): Format then Set gives the same config
		p, _ := Lookup(path)
		back, err := Parse(c.JSON())
		if err != nil || back != c {
			t.Fatalf("Set(%q, %q): JSON round trip gives %v (%v)", path, value, p.Get(&back), err)
		}
		again := Default()
		if IsAutoWarmup(value) && path == WarmupPath {
			// "auto" is a switch, not a value: sim.autoWarmup renders it
			again.Sim.AutoWarmup = true
		}
		if err := again.Set(path, p.Format(&c)); err != nil || again != c {
			t.Fatalf("Set(%q, %q): Format gives %q, which sets %v (%v)", path, value, p.Format(&c), p.Get(&again), err)
		}
		if strings.TrimSpace(path) != path {
			t.Fatalf("path %q with spaces accepted", path)
		}
	})
}

// duplicateKeysByTokens is duplicateKeys written with json.Decoder.Token:
// slower, and the reference FuzzDecode compares the scanner with.
func duplicateKeysByTokens(data []byte) []string {
	var paths []string
	dec := json.NewDecoder(bytes.NewReader(data))
	var value func(path string) bool
	value = func(path string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return true
		}
		switch d {
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return false
				}
				k, _ := tok.(string)
				if seen[k] {
					paths = append(paths, memberPath(path, k))
				}
				seen[k] = true
				if !value(memberPath(path, k)) {
					return false
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if !value(fmt.Sprintf("%s[%d]", path, i)) {
					return false
				}
			}
		}
		_, err = dec.Token()
		return err == nil
	}
	value("")
	return paths
}
