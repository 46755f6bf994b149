package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// A row is one configuration run by both simulators: phitsim's settings on
// top of the base preset, FOGSim's keys on top of its base file.
type row struct {
	ID, What string
	Sets     [][2]string // path, value
	Keys     []string    // Key=Value
	Sat      bool        // at or past saturation (id ends in -sat)
}

// parseRows reads rows.txt: '#' comments, blank lines, and lines
// "id | what | path=value ... | Key=Value ...". The row "common" holds
// settings applied to every row.
func parseRows(r io.Reader) (common [][2]string, rows []row, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 4 {
			return nil, nil, fmt.Errorf("line %d: want 4 fields separated by '|' (id | what | phitsim settings | FOGSim keys), got %d", n, len(f))
		}
		id := strings.TrimSpace(f[0])
		sets, err := parseSets(f[2])
		if err != nil {
			return nil, nil, fmt.Errorf("line %d (%s): %w", n, id, err)
		}
		if id == "common" {
			common = sets
			continue
		}
		if id == "" || seen[id] {
			return nil, nil, fmt.Errorf("line %d: empty or repeated row id %q", n, id)
		}
		seen[id] = true
		keys := strings.Fields(f[3])
		for _, k := range keys {
			if !strings.Contains(k, "=") {
				return nil, nil, fmt.Errorf("line %d (%s): FOGSim key %q is not Key=Value", n, id, k)
			}
		}
		rows = append(rows, row{ID: id, What: strings.TrimSpace(f[1]), Sets: sets, Keys: keys,
			Sat: strings.HasSuffix(id, "-sat")})
	}
	return common, rows, sc.Err()
}

func parseSets(s string) ([][2]string, error) {
	var out [][2]string
	for _, kv := range strings.Fields(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("phitsim setting %q is not path=value", kv)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}
