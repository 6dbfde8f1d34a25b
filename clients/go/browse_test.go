package mnemo_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// collect gathers every item of an iterator, failing the test at its error.
func collect[T any](t *testing.T, items func(yield func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for item, err := range items {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, item)
	}
	return out
}

// TestAppsAndResetPolicies runs its own daemon: an admin token, an app with no
// data, and a reset section with an override.
func TestAppsAndResetPolicies(t *testing.T) {
	d := startOwn(t, "auth:\n  required: true\n  admin_tokens: [admin-secret]\n"+
		"apps:\n  shop:\n    tokens: [shop-secret]\n  idle: {}\n"+
		"reset: {timezone: Europe/Berlin, default: {mode: both, at_hour: 3},"+
		" overrides: [{match: {platform: telegram, chat_type: dm}, policy: {mode: idle, idle_minutes: 60}}]}\n")
	ctx := t.Context()
	shop := d.Client(t, mnemo.WithToken("shop-secret"))
	must[*mnemo.Session](t)(shop.CreateSession(ctx, "shop", "u1", mnemo.NewSession{ID: "s1"}))
	must[*mnemo.AppendResult](t)(shop.AppendEvent(ctx, "shop", "u1", "s1",
		mnemo.NewEvent{Author: "user", Content: "hi"}, mnemo.AppendOptions{}))
	must[*mnemo.Session](t)(shop.CreateSession(ctx, "shop", "u2", mnemo.NewSession{ID: "s2"}))

	apps := must[[]mnemo.AppActivity](t)(d.Client(t, mnemo.WithToken("admin-secret")).ListApps(ctx))
	byName := map[string]mnemo.AppActivity{}
	for _, app := range apps {
		byName[app.App] = app
	}
	if s := byName["shop"]; !s.Configured || s.Users != 2 || s.Sessions != 2 || s.Events != 1 || s.LastActiveAt == nil {
		t.Errorf("shop %+v", s)
	}
	if idle := byName["idle"]; !idle.Configured || idle.Sessions != 0 || idle.LastActiveAt != nil {
		t.Errorf("idle %+v", idle)
	}
	if _, err := shop.ListApps(ctx); !errors.Is(err, mnemo.PermissionDenied) {
		t.Errorf("an app's token listed the apps: %v", err)
	}

	policies := must[*mnemo.ResetPolicies](t)(shop.ResetPolicies(ctx, "shop"))
	override := mnemo.ResetPolicy{Mode: "idle", AtHour: 3, IdleMinutes: 60, Notify: policies.Default.Notify}
	want := []mnemo.ResetOverride{{Match: mnemo.ResetMatch{Platform: "telegram", ChatType: "dm"}, Policy: override}}
	if policies.Timezone != "Europe/Berlin" || policies.Default.AtHour != 3 ||
		!reflect.DeepEqual(policies.Overrides, want) {
		t.Errorf("policies %+v", policies)
	}
}

func TestUsersMostRecentlyActiveFirst(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		for _, user := range []string{"u1", "u2", "u3"} {
			must[*mnemo.Session](t)(c.CreateSession(ctx, "us", user, mnemo.NewSession{ID: "s"}))
		}
		must[*mnemo.AppendResult](t)(c.AppendEvent(ctx, "us", "u1", "s",
			mnemo.NewEvent{Author: "user", Content: "back again"}, mnemo.AppendOptions{}))
		page := must[*mnemo.UserPage](t)(c.ListUsers(ctx, "us", mnemo.ListUsersOptions{Limit: 2}))
		if len(page.Users) != 2 || page.Users[0].User != "u1" || page.Users[0].Events != 1 ||
			page.Users[1].User != "u3" || page.NextPageToken == "" {
			t.Errorf("first page %+v", page)
		}
		var names []string
		for _, u := range collect(t, c.Users(ctx, "us", mnemo.ListUsersOptions{Limit: 2})) {
			names = append(names, u.User)
		}
		if !reflect.DeepEqual(names, []string{"u1", "u3", "u2"}) {
			t.Errorf("users %v", names)
		}
	})
}

func TestListTracksByName(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		must[*mnemo.Session](t)(c.CreateSession(ctx, "tl", "u1", mnemo.NewSession{ID: "s1"}))
		at := time.Date(2026, 11, 21, 10, 5, 0, 0, time.UTC)
		for _, track := range []string{"ui", "audit", "audit", "tool:log"} {
			must[*mnemo.TrackEvent](t)(c.AppendTrack(ctx, "tl", "u1", "s1", track, track, at))
		}
		page := must[*mnemo.TrackPage](t)(c.ListTracks(ctx, "tl", "u1", "s1", mnemo.ListTracksOptions{Limit: 2}))
		want := []mnemo.TrackInfo{{Track: "audit", Events: 2, LastSeq: 2, LastTimestamp: at},
			{Track: "tool:log", Events: 1, LastSeq: 1, LastTimestamp: at}}
		if !reflect.DeepEqual(page.Tracks, want) || page.NextPageToken == "" {
			t.Errorf("first page %+v", page)
		}
		var names []string
		for _, info := range collect(t, c.Tracks(ctx, "tl", "u1", "s1", mnemo.ListTracksOptions{Limit: 2})) {
			names = append(names, info.Track)
		}
		if !reflect.DeepEqual(names, []string{"audit", "tool:log", "ui"}) {
			t.Errorf("tracks %v", names)
		}
		if _, err := c.ListTracks(ctx, "tl", "u1", "missing", mnemo.ListTracksOptions{}); !errors.Is(err, mnemo.NotFound) {
			t.Errorf("a missing session's tracks: %v", err)
		}
	})
}
