package docs

import (
	"strings"
	"testing"

	"phitsim/engine/config"
	"phitsim/site/experiment"
)

// Every choice the page offers for a mechanism links to a section.
func TestEveryEnumValueHasATopic(t *testing.T) {
	for _, path := range []string{"routing.name", "traffic.pattern", "traffic.switchPattern", "router.inputArbiter",
		"router.outputArbiter", "router.injectionPolicy", "routing.phaseA", "traffic.process", "router.model", "topology.arrangement", "router.ejection", "router.vcSelection", "topology.kind",
		"congestion.scheme", "congestion.idealPriority", "traffic.hotspotBackground", "router.queueing"} {
		p, ok := config.Lookup(path)
		if !ok || len(p.Enum) == 0 {
			t.Fatalf("%s: not an enum parameter", path)
		}
		for _, v := range p.Enum {
			id, ok := For(path, v)
			if !ok {
				t.Errorf("%s = %s has no topic", path, v)
				continue
			}
			if _, ok := Lookup(id); !ok {
				t.Errorf("%s = %s maps to missing topic %q", path, v, id)
			}
		}
	}
	if id, _ := For("routing.name", "PB"); id != "routing-PB" {
		t.Errorf("PB -> %q", id)
	}
	if id, _ := For("routing.phaseA", "CRG-Gr"); id != "phasea-CRG" {
		t.Errorf("CRG-Gr -> %q", id)
	}
	if _, ok := For("routing.name", "NOPE"); ok {
		t.Error("an unknown routing has a topic")
	}
}

// Every chart the page can show links to its metric's section, and every
// parameter mapped to a section names one that exists.
func TestChartsAndParamsMapToTopics(t *testing.T) {
	for _, c := range experiment.Charts {
		id, ok := Metric(c)
		if !ok {
			t.Errorf("chart %s has no metric topic", c)
			continue
		}
		if tp, ok := Lookup(id); !ok || tp.Kind != "metric" {
			t.Errorf("chart %s -> %q: not a metric topic", c, id)
		}
	}
	for path, id := range paramTopics {
		if _, ok := config.Lookup(path); !ok {
			t.Errorf("paramTopics: unknown parameter %s", path)
		}
		if _, ok := Lookup(id); !ok {
			t.Errorf("paramTopics: %s -> missing topic %q", path, id)
		}
	}
}

// Every section is complete, unique and cites a paper by name and section.
func TestTopicsComplete(t *testing.T) {
	seen := map[string]bool{}
	size := 0
	kinds := map[string]bool{"topology": true, "routing": true, "traffic": true, "arbiter": true, "router": true, "metric": true}
	for _, tp := range Topics() {
		if seen[tp.ID] {
			t.Errorf("duplicate topic %s", tp.ID)
		}
		seen[tp.ID] = true
		if !kinds[tp.Kind] {
			t.Errorf("%s: kind %q", tp.ID, tp.Kind)
		}
		if tp.Title == "" || len(tp.Text) < 60 || tp.Expect == "" {
			t.Errorf("%s: title, text or expectation missing", tp.ID)
		}
		if !strings.Contains(tp.Paper, "§") && !strings.Contains(tp.Paper, "Table") && !strings.Contains(tp.Paper, "ISCA") {
			t.Errorf("%s: paper reference %q names no section", tp.ID, tp.Paper)
		}
		for _, bad := range []string{"notes", "issue"} {
			if strings.Contains(strings.ToLower(tp.Paper+tp.Text+tp.Expect), bad) {
				t.Errorf("%s cites %q: cite papers by title and section", tp.ID, bad)
			}
		}
		size += len(tp.ID) + len(tp.Title) + len(tp.Text) + len(tp.Paper) + len(tp.Expect)
	}
	// It ships in ui.wasm and is read in a side panel: every mechanism gets its
	// topic, but topics stay short (500 bytes each on average).
	if size > 500*len(seen) {
		t.Errorf("%d bytes of text in %d topics; keep it under 500 bytes a topic on average (%d)", size, len(seen), 500*len(seen))
	}
	t.Logf("%d topics, %d bytes of text", len(seen), size)
}

// The first-time visitor's questions are answered on the page.
func TestNewcomerQuestions(t *testing.T) {
	for _, q := range []struct{ id, want string }{
		{"traffic-ADV", "group g+i"},          // what is ADV+1
		{"routing-PB", "saturated"},           // what is PiggyBack
		{"metric-accepted", "delivered"},      // what accepted load means
		{"metric-latency", "shoots up"},       // why the latency curve shoots up
		{"metric-ci", "t = 12.7"},             // why two seeds give huge whiskers
		{"metric-histogram", "≥ sim.histMax"}, // the overflow bin
		{"metric-saturated", "triangle"},      // the saturated points
	} {
		tp, ok := Lookup(q.id)
		if !ok || !strings.Contains(tp.Text, q.want) {
			t.Errorf("%s does not say %q", q.id, q.want)
		}
	}
}

// The page asks "what is <Title>?": titles are singular noun phrases with
// no leading article ("what is Dragonfly network?", not "what is The
// Dragonfly network?") and no clause ("Latency, and why it shoots up").
func TestTitlesReadAfterWhatIs(t *testing.T) {
	for _, tp := range Topics() {
		first, _, _ := strings.Cut(tp.Title, " ")
		if first == "The" || first == "A" || first == "An" || strings.Contains(tp.Title, ", and") ||
			strings.Contains(strings.ToLower(tp.Title), " why ") {
			t.Errorf("%s: %q reads badly after \"what is\"", tp.ID, tp.Title)
		}
		// the head noun: "Saturated point (triangle)", "… interval over seeds"
		head, _, _ := strings.Cut(tp.Title, "(")
		head, _, _ = strings.Cut(head, " over ")
		head, _, _ = strings.Cut(head, " per ")
		words := strings.Fields(head)
		if last := words[len(words)-1]; strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") &&
			last != "TEPS" && last != "CoV" && last != "series" {
			t.Errorf("%s: %q is plural: \"what is … %s?\"", tp.ID, tp.Title, last)
		}
	}
	if tp, _ := Lookup("topology-dragonfly"); tp.Title != "Dragonfly network" {
		t.Errorf("dragonfly: %q", tp.Title)
	}
}

// The histogram's last bin is sim.histMax − 1, as the engine counts it
// (engine/sim: hist[min(lat, histMax−1)]) and the chart labels it.
func TestHistogramTopicMatchesTheEngine(t *testing.T) {
	tp, _ := Lookup("metric-histogram")
	if !strings.Contains(tp.Text, "every latency ≥ sim.histMax − 1") {
		t.Errorf("histogram text: %q", tp.Text)
	}
	for _, s := range []string{tp.Text, tp.Expect} {
		s = strings.ReplaceAll(s, "sim.histMax − 1", "")
		for _, m := range []string{"≥ sim.histMax", "longer than sim.histMax"} {
			if strings.Contains(s, m) {
				t.Errorf("histogram topic says %q: the last bin is sim.histMax − 1", m)
			}
		}
	}
}
