package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"phitsim/engine/config"
)

// Request-reply traffic: each point's aggregate carries the request and the
// reply accepted loads (mean ± CI over the seeds), which add up to the
// accepted load, and the CSV gets their columns after the standard ones.
// Other traffic has neither (nil in the aggregate, absent from its JSON, no
// columns, or empty cells in a sweep that mixes both).
func TestRequestReplyThroughputInAggregateAndCSV(t *testing.T) {
	c, err := config.PresetByName("h2")
	if err != nil {
		t.Fatal(err)
	}
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 500, 2000, 2
	rr := c
	rr.Name, rr.Traffic.Reactive = "rr", true
	un := c
	un.Name = "un"
	sp := Spec{Series: []config.Config{rr, un}, Loads: []float64{0.1, 0.2}}
	out, err := Run(context.Background(), sp, Options{})
	if err != nil || len(out.Points) != 4 {
		t.Fatalf("run: %v, %d points", err, len(out.Points))
	}
	for _, p := range out.Points[:2] {
		req, rep := p.RequestAccepted, p.ReplyAccepted
		if req == nil || rep == nil || req.N != 2 || rep.N != 2 {
			t.Fatalf("%s load %g: request %+v reply %+v", p.Name, p.Offered, req, rep)
		}
		if d := math.Abs(req.Mean + rep.Mean - p.Accepted.Mean); d > 1e-9 {
			t.Errorf("load %g: request %.5f + reply %.5f ≠ accepted %.5f", p.Offered, req.Mean, rep.Mean, p.Accepted.Mean)
		}
		// below saturation requests and replies each carry about half
		if math.Abs(req.Mean-p.Accepted.Mean/2) > 0.1*p.Accepted.Mean || math.Abs(rep.Mean-p.Accepted.Mean/2) > 0.1*p.Accepted.Mean {
			t.Errorf("load %g: request %.5f reply %.5f of %.5f", p.Offered, req.Mean, rep.Mean, p.Accepted.Mean)
		}
		if req.CI95 < 0 || rep.CI95 < 0 || math.IsNaN(req.CI95) || math.IsNaN(rep.CI95) {
			t.Errorf("CI %g %g", req.CI95, rep.CI95)
		}
	}
	for _, p := range out.Points[2:] {
		if p.RequestAccepted != nil || p.ReplyAccepted != nil {
			t.Errorf("%s: request-reply figures without request-reply traffic: %+v", p.Name, p)
		}
		js, _ := json.Marshal(p)
		if strings.Contains(string(js), "requestAccepted") {
			t.Errorf("%s: %s", p.Name, js)
		}
	}

	var b bytes.Buffer
	if err := WriteCSV(&b, out.Points); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 5 {
		t.Fatalf("csv: %v %v", err, rows)
	}
	want := append(append(append([]string(nil), CSVHeader...), CSVReplyHeader...), CSVQualityHeader...)
	if !reflect.DeepEqual(rows[0], want) {
		t.Fatalf("header %v, want %v", rows[0], want)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	num := func(row []string, name string) float64 {
		x, err := strconv.ParseFloat(row[col[name]], 64)
		if err != nil {
			t.Fatalf("%s = %q: %v", name, row[col[name]], err)
		}
		return x
	}
	for _, row := range rows[1:3] {
		acc, req, rep := num(row, "accepted"), num(row, "request_accepted"), num(row, "reply_accepted")
		if math.Abs(req+rep-acc) > 1e-5*acc { // 6 significant digits in the CSV
			t.Errorf("csv row %v: %g + %g ≠ %g", row, req, rep, acc)
		}
		num(row, "request_accepted_ci95")
		num(row, "reply_accepted_ci95")
	}
	for _, row := range rows[3:] {
		for _, h := range CSVReplyHeader {
			if row[col[h]] != "" {
				t.Errorf("%s of a point without request-reply traffic: %q", h, row[col[h]])
			}
		}
	}
	// a sweep without request-reply traffic keeps exactly the standard
	// columns (and the quality columns, last)
	b.Reset()
	if err := WriteCSV(&b, out.Points[2:]); err != nil {
		t.Fatal(err)
	}
	if rows, _ := csv.NewReader(&b).ReadAll(); !reflect.DeepEqual(rows[0], append(append([]string(nil), CSVHeader...), CSVQualityHeader...)) {
		t.Errorf("header %v", rows[0])
	}
}
