package mnemo_test

import (
	"errors"
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestStateScopes(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		must[*mnemo.Session](t)(c.CreateSession(ctx, "st", "u1", mnemo.NewSession{ID: "s1"}))
		patched := must[*mnemo.StateResult](t)(c.PatchSessionState(ctx, "st", "u1", "s1",
			map[string]any{"step": 3, "user:tz": "CET", "app:promo": "x"}, 1))
		if patched.Version != 2 || patched.State["step"] != 3.0 || patched.State["app:promo"] != "x" {
			t.Errorf("patched %+v", patched)
		}
		_, err := c.PatchSessionState(ctx, "st", "u1", "s1", map[string]any{"step": 4}, 1)
		if !errors.Is(err, mnemo.Conflict) {
			t.Errorf("a stale patch: %v, want Conflict", err)
		}
		if user := must[map[string]any](t)(c.UserState(ctx, "st", "u1")); user["tz"] != "CET" {
			t.Errorf("user state %v", user)
		}
		app := must[map[string]any](t)(c.PatchAppState(ctx, "st", map[string]any{"promo": nil, "theme": "dark"}))
		if _, ok := app["promo"]; ok || app["theme"] != "dark" {
			t.Errorf("app state %v", app)
		}
		must[map[string]any](t)(c.PatchUserState(ctx, "st", "u1", map[string]any{"plan": "pro"}))
		if err := c.DeleteUserStateKey(ctx, "st", "u1", "plan"); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteAppStateKey(ctx, "st", "theme"); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteAppStateKey(ctx, "st", "theme"); !errors.Is(err, mnemo.NotFound) {
			t.Errorf("deleting a missing key: %v, want NotFound", err)
		}
		if app := must[map[string]any](t)(c.AppState(ctx, "st")); len(app) != 0 {
			t.Errorf("app state left %v", app)
		}
	})
}
