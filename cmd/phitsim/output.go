package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"phitsim/engine/result"
)

// encodeJSON is v as indented JSON. encoding/json refuses NaN and ±Inf,
// which would lose a finished result to one bad number: then v is encoded by
// encodeNulls, and nonFinite lists where those numbers were.
func encodeJSON(v any) (data []byte, nonFinite []string, err error) {
	data, err = json.MarshalIndent(v, "", "  ")
	var uv *json.UnsupportedValueError
	if errors.As(err, &uv) {
		return encodeNulls(v)
	}
	if err != nil {
		return nil, nil, err
	}
	return append(data, '\n'), nil, nil
}

// encodeNulls is encoding/json's MarshalIndent (the v1 semantics of
// go-json-experiment) except that NaN and ±Inf are written as null; nonFinite
// lists them as JSON pointers with their values ("/runs/0/fairness/maxMin = +Inf").
func encodeNulls(v any) (data []byte, nonFinite []string, err error) {
	asNull := func(enc *jsontext.Encoder, x float64) error {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return jsonv2.SkipFunc
		}
		nonFinite = append(nonFinite, string(enc.StackPointer())+" = "+strconv.FormatFloat(x, 'g', -1, 64))
		return enc.WriteToken(jsontext.Null)
	}
	data, err = jsonv2.Marshal(v, jsonv1.DefaultOptionsV1(), jsontext.Multiline(true), jsontext.WithIndent("  "),
		jsonv2.WithMarshalers(jsonv2.JoinMarshalers(
			jsonv2.MarshalToFunc(asNull),
			jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, x float32) error { return asNull(enc, float64(x)) }))))
	if err != nil {
		return nil, nonFinite, err
	}
	return append(data, '\n'), nonFinite, nil
}

// nonFiniteError says which numbers of a written result were not finite.
func nonFiniteError(where []string) error {
	const most = 5
	more := ""
	if len(where) > most {
		more = fmt.Sprintf(" and %d more", len(where)-most)
		where = where[:most]
	}
	return fmt.Errorf("the result holds numbers JSON cannot represent, written as null: %s%s",
		strings.Join(where, ", "), more)
}

// deliver writes data (what: "the result JSON", "the curves CSV") to the
// file path, or to stdout when path is "", and returns where it went. A
// finished result is never lost to an output error: when that write fails,
// data goes to a new file in the temporary folder instead (or, failing that
// too, to stdout), and the error returned says what failed and where the data
// is, to be reported once, and makes the command exit non-zero.
func deliver(path string, stdout io.Writer, what string, data []byte) (string, error) {
	var err error
	if path == "" {
		_, err = stdout.Write(data)
		path = "stdout"
	} else {
		err = os.WriteFile(path, data, 0o644)
	}
	if err == nil {
		return path, nil
	}
	ext := ".json"
	if strings.Contains(what, "CSV") {
		ext = ".csv"
	}
	if f, ferr := os.CreateTemp("", "phitsim-*"+ext); ferr == nil {
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil && cerr == nil {
			return f.Name(), fmt.Errorf("could not write %s to %s (%w); it is in %s", what, path, err, f.Name())
		}
		os.Remove(f.Name())
	}
	if path != "stdout" {
		if _, serr := stdout.Write(data); serr == nil {
			return "stdout", fmt.Errorf("could not write %s to %s (%w); it was written to stdout instead", what, path, err)
		}
	}
	return "", fmt.Errorf("could not write %s to %s (%w), nor anywhere else", what, path, err)
}

// versionText is what 'phitsim version' prints, from the build information
// the Go toolchain stamps into the binary.
func versionText(bi *debug.BuildInfo, ok bool) string {
	version, goVersion := "(devel)", runtime.Version()
	rev, when, modified := "", "", false
	goos, goarch := runtime.GOOS, runtime.GOARCH
	if ok && bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			case "GOOS":
				goos = s.Value
			case "GOARCH":
				goarch = s.Value
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "phitsim %s\n", version)
	if rev == "" {
		b.WriteString("unknown revision (built without version control information, e.g. by go run)\n")
	} else {
		fmt.Fprintf(&b, "revision %s", rev)
		if when != "" {
			fmt.Fprintf(&b, " (%s)", when)
		}
		if modified {
			b.WriteString(" +dirty: built with uncommitted changes")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "engine %s\n%s %s/%s\n", result.EngineVersion, goVersion, goos, goarch)
	return b.String()
}

// plural writes n and the noun, plural unless n is 1 ("series" is its own
// plural): "1 value", "12 runs".
func plural(n int, noun string) string {
	if n != 1 && noun != "series" {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}
