package mnemo

import "context"

// StateResult is a scope's state after a read or a patch. Version is the
// session's version, for session state only.
type StateResult struct {
	Version int64          `json:"version,omitempty"`
	State   map[string]any `json:"state"`
}

type statePatch struct {
	StateDelta      map[string]any `json:"state_delta"`
	ExpectedVersion int64          `json:"expected_version,omitempty"`
}

// PatchSessionState applies delta to a session (the state-delta rules: "app:K"
// and "user:K" reach those scopes, nil deletes) and answers the merged state.
// expectedVersion 0 means unconditional; another version than the session's is Conflict.
func (c *Client) PatchSessionState(ctx context.Context, app, user, session string, delta map[string]any,
	expectedVersion int64) (*StateResult, error) {
	return c.patchState(ctx, sessionPath(app, user, session)+"/state", statePatch{delta, expectedVersion})
}

// AppState reads an app's state.
func (c *Client) AppState(ctx context.Context, app string) (map[string]any, error) {
	return c.readState(ctx, appPath(app)+"/state")
}

// PatchAppState applies delta to an app's state (nil values delete).
func (c *Client) PatchAppState(ctx context.Context, app string, delta map[string]any) (map[string]any, error) {
	out, err := c.patchState(ctx, appPath(app)+"/state", statePatch{StateDelta: delta})
	if err != nil {
		return nil, err
	}
	return out.State, nil
}

// DeleteAppStateKey deletes one key of an app's state; a missing key is NotFound.
func (c *Client) DeleteAppStateKey(ctx context.Context, app, key string) error {
	return c.do(ctx, call{method: "DELETE", path: appPath(app) + "/state/" + seg(key), safe: true}, nil)
}

// UserState reads a user's state in an app.
func (c *Client) UserState(ctx context.Context, app, user string) (map[string]any, error) {
	return c.readState(ctx, userPath(app, user)+"/state")
}

// PatchUserState applies delta to a user's state (nil values delete).
func (c *Client) PatchUserState(ctx context.Context, app, user string, delta map[string]any) (map[string]any, error) {
	out, err := c.patchState(ctx, userPath(app, user)+"/state", statePatch{StateDelta: delta})
	if err != nil {
		return nil, err
	}
	return out.State, nil
}

// DeleteUserStateKey deletes one key of a user's state; a missing key is NotFound.
func (c *Client) DeleteUserStateKey(ctx context.Context, app, user, key string) error {
	return c.do(ctx, call{method: "DELETE", path: userPath(app, user) + "/state/" + seg(key), safe: true}, nil)
}

func (c *Client) readState(ctx context.Context, path string) (map[string]any, error) {
	var out StateResult
	if err := c.get(ctx, path, nil, &out); err != nil {
		return nil, err
	}
	return out.State, nil
}

func (c *Client) patchState(ctx context.Context, path string, patch statePatch) (*StateResult, error) {
	var out StateResult
	// A conditional patch repeated would meet its own version: not safe to send again.
	err := c.do(ctx, call{method: "PATCH", path: path, body: patch, safe: patch.ExpectedVersion == 0}, &out)
	return result(&out, err)
}
