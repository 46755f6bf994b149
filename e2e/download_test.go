package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// download clicks the element sel (a real mouse click) and returns the file
// the browser downloads: its name and its content. The browser saves it
// into a temporary folder under its GUID (browser.SetDownloadBehavior).
func download(t *testing.T, ctx context.Context, sel string) (name string, data []byte) {
	t.Helper()
	dir := t.TempDir()
	lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	on := true
	if _, err := chromedp.Call(lctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &on,
	}); err != nil {
		t.Fatal(err)
	}
	begin := chromedp.Events(lctx, cdpbrowser.DownloadWillBegin)
	progress := chromedp.Events(lctx, cdpbrowser.DownloadProgress)
	if err := chromedp.Do(lctx, chromedp.Click(sel)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
	var guid string
	for ev, err := range begin {
		if err != nil {
			t.Fatalf("%s: no download began: %v", sel, err)
		}
		guid, name = ev.GUID, ev.SuggestedFilename
		break
	}
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("%s: download %s did not complete: %v", sel, name, err)
		}
		if ev.GUID != guid {
			continue
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatalf("%s: download %s cancelled", sel, name)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			break
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		t.Fatal(err)
	}
	return name, data
}
