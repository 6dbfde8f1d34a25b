package mnemo_test

import (
	"errors"
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestSessionLifecycle(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		s := must[*mnemo.Session](t)(c.CreateSession(ctx, "lc", "u1", mnemo.NewSession{
			ID: "s1", State: map[string]any{"cart": 1, "app:currency": "EUR", "user:lang": "de"},
			Metadata: map[string]any{"channel": "web"},
		}))
		if s.ID != "s1" || s.Version != 1 || s.State["app:currency"] != "EUR" || s.Metadata["channel"] != "web" {
			t.Fatalf("created %+v", s)
		}
		_, err := c.CreateSession(ctx, "lc", "u1", mnemo.NewSession{ID: "s1"})
		if !errors.Is(err, mnemo.AlreadyExists) {
			t.Fatalf("creating s1 again: %v, want AlreadyExists", err)
		}
		generated := must[*mnemo.Session](t)(c.CreateSession(ctx, "lc", "u1", mnemo.NewSession{}))
		if len(generated.ID) != 36 {
			t.Errorf("generated id %q is not a UUID", generated.ID)
		}
		got := must[*mnemo.SessionWithEvents](t)(c.GetSession(ctx, "lc", "u1", "s1", mnemo.GetSessionOptions{}))
		if got.Session.State["user:lang"] != "de" || got.Session.State["cart"] != 1.0 || len(got.Events) != 0 {
			t.Errorf("read %+v", got)
		}

		if err := c.DeleteSession(ctx, "lc", "u1", "s1", false); err != nil {
			t.Fatal(err)
		}
		_, err = c.GetSession(ctx, "lc", "u1", "s1", mnemo.GetSessionOptions{})
		var apiErr *mnemo.Error
		if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != mnemo.NotFound || apiErr.RequestID == "" {
			t.Fatalf("reading a deleted session: %#v, want a 404 not_found with a request id", err)
		}
		if err := c.DeleteSession(ctx, "lc", "u1", "s1", true); !errors.Is(err, mnemo.NotFound) {
			t.Errorf("deleting a deleted session: %v, want NotFound", err)
		}
	})
}

func TestSessionsPageByPage(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		want := map[string]bool{}
		for _, user := range []string{"a", "b"} {
			for range 3 {
				s := must[*mnemo.Session](t)(c.CreateSession(ctx, "pages", user, mnemo.NewSession{}))
				want[user+"/"+s.ID] = true
			}
		}
		got := map[string]bool{}
		for s, err := range c.Sessions(ctx, "pages", "", mnemo.ListSessionsOptions{Limit: 2}) {
			if err != nil {
				t.Fatal(err)
			}
			got[s.User+"/"+s.ID] = true
		}
		if len(got) != 6 || len(want) != 6 {
			t.Fatalf("listed %v, want %v", got, want)
		}
		for key := range want {
			if !got[key] {
				t.Errorf("%s not listed", key)
			}
		}
		page := must[*mnemo.SessionPage](t)(c.ListSessions(ctx, "pages", "a", mnemo.ListSessionsOptions{Limit: 2}))
		if len(page.Sessions) != 2 || page.NextPageToken == "" {
			t.Errorf("first page of a: %d sessions, token %q", len(page.Sessions), page.NextPageToken)
		}
		narrowed := 0
		for s, err := range c.Sessions(ctx, "pages", "", mnemo.ListSessionsOptions{User: "b"}) {
			if err != nil || s.User != "b" {
				t.Fatalf("%v %+v", err, s)
			}
			narrowed++
		}
		if narrowed != 3 {
			t.Errorf("user=b listed %d sessions, want 3", narrowed)
		}
		counts := must[*mnemo.PurgeCounts](t)(c.PurgeUser(ctx, "pages", "a"))
		if counts.Sessions != 3 {
			t.Errorf("purge of a counted %+v", counts)
		}
	})
}

func TestIteratorStopsOnError(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		n := 0
		for _, err := range c.Sessions(t.Context(), "bad app", "", mnemo.ListSessionsOptions{}) {
			n++
			if !errors.Is(err, mnemo.InvalidArgument) {
				t.Errorf("listing a bad app name: %v, want InvalidArgument", err)
			}
		}
		if n != 1 {
			t.Errorf("the iterator yielded %d times, want the error once", n)
		}
	})
}
