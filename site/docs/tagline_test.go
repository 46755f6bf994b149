package docs

import (
	"os"
	"strings"
	"testing"

	"phitsim/engine/topology"
)

// The page's tagline names every topology kind the engine runs (the
// flattened butterfly of Kim et al.'s congestion-management paper and the
// RECN paper's fat tree beside the Dragonfly), and static/index.html's
// title and description are the page's own, not a Dragonfly simulator's.
func TestTaglineNamesEveryTopology(t *testing.T) {
	for _, name := range topology.Kinds() {
		k, err := topology.KindOf(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(Tagline, k.Title) {
			t.Errorf("tagline %q lacks %q", Tagline, k.Title)
		}
	}
	b, err := os.ReadFile("../../static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if !strings.Contains(html, "<title>"+PageTitle+"</title>") {
		t.Errorf("static/index.html's title is not %q", PageTitle)
	}
	if !strings.Contains(html, "flattened butterfly") || !strings.Contains(html, "fat tree") {
		t.Errorf("static/index.html's description names only the Dragonfly")
	}
}
