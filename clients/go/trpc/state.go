package trpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// binary is how a state value that is not UTF-8 is kept in mnemod.
type binary struct {
	Base64 string `json:"base64"`
}

// toJSON is a tRPC state value as mnemod keeps it; nil deletes the key.
func toJSON(value []byte) any {
	if value == nil {
		return nil
	}
	if utf8.Valid(value) {
		return string(value)
	}
	return binary{Base64: base64.StdEncoding.EncodeToString(value)}
}

// fromJSON is the tRPC state value of a mnemod state value: the bytes this
// package wrote, or the JSON of a value another client wrote.
func fromJSON(value any) []byte {
	switch v := value.(type) {
	case string:
		return []byte(v)
	case map[string]any:
		if encoded, ok := v["base64"].(string); ok && len(v) == 1 {
			if decoded, err := base64.StdEncoding.DecodeString(encoded); err == nil {
				return decoded
			}
		}
	}
	encoded, _ := json.Marshal(value)
	return encoded
}

func deltaOf(state session.StateMap, trim string) map[string]any {
	delta := make(map[string]any, len(state))
	for key, value := range state {
		delta[strings.TrimPrefix(key, trim)] = toJSON(value)
	}
	return delta
}

func stateMapOf(state map[string]any) session.StateMap {
	out := make(session.StateMap, len(state))
	for key, value := range state {
		out[key] = fromJSON(value)
	}
	return out
}

// UpdateAppState writes keys of the app's state (an "app:" prefix is dropped).
func (s *SessionService) UpdateAppState(ctx context.Context, appName string, state session.StateMap) error {
	if appName == "" {
		return session.ErrAppNameRequired
	}
	if _, err := s.client.PatchAppState(ctx, appName, deltaOf(state, session.StateAppPrefix)); err != nil {
		return fmt.Errorf("trpc: updating the state of app %s: %w", appName, err)
	}
	return nil
}

// DeleteAppState deletes one key of the app's state; a missing key is no error.
func (s *SessionService) DeleteAppState(ctx context.Context, appName string, key string) error {
	if appName == "" {
		return session.ErrAppNameRequired
	}
	err := s.client.DeleteAppStateKey(ctx, appName, strings.TrimPrefix(key, session.StateAppPrefix))
	if err != nil && !errors.Is(err, mnemo.NotFound) {
		return fmt.Errorf("trpc: deleting key %s of app %s: %w", key, appName, err)
	}
	return nil
}

// ListAppStates reads the app's state, its keys without prefix.
func (s *SessionService) ListAppStates(ctx context.Context, appName string) (session.StateMap, error) {
	if appName == "" {
		return nil, session.ErrAppNameRequired
	}
	state, err := s.client.AppState(ctx, appName)
	if err != nil {
		return nil, fmt.Errorf("trpc: reading the state of app %s: %w", appName, err)
	}
	return stateMapOf(state), nil
}

// UpdateUserState writes keys of the user's state (a "user:" prefix is
// dropped); "app:" and "temp:" keys are refused, as tRPC's own services do.
func (s *SessionService) UpdateUserState(ctx context.Context, userKey session.UserKey, state session.StateMap) error {
	if err := userKey.CheckUserKey(); err != nil {
		return err
	}
	for key := range state {
		if strings.HasPrefix(key, session.StateAppPrefix) || strings.HasPrefix(key, session.StateTempPrefix) {
			return fmt.Errorf("trpc: user state key %s is not allowed: use UpdateAppState for app: keys; "+
				"temp: keys are never stored", key)
		}
	}
	_, err := s.client.PatchUserState(ctx, userKey.AppName, userKey.UserID, deltaOf(state, session.StateUserPrefix))
	if err != nil {
		return fmt.Errorf("trpc: updating the state of user %s/%s: %w", userKey.AppName, userKey.UserID, err)
	}
	return nil
}

// ListUserStates reads the user's state, its keys without prefix.
func (s *SessionService) ListUserStates(ctx context.Context, userKey session.UserKey) (session.StateMap, error) {
	if err := userKey.CheckUserKey(); err != nil {
		return nil, err
	}
	state, err := s.client.UserState(ctx, userKey.AppName, userKey.UserID)
	if err != nil {
		return nil, fmt.Errorf("trpc: reading the state of user %s/%s: %w", userKey.AppName, userKey.UserID, err)
	}
	return stateMapOf(state), nil
}

// DeleteUserState deletes one key of the user's state; a missing key is no error.
func (s *SessionService) DeleteUserState(ctx context.Context, userKey session.UserKey, key string) error {
	if err := userKey.CheckUserKey(); err != nil {
		return err
	}
	err := s.client.DeleteUserStateKey(ctx, userKey.AppName, userKey.UserID,
		strings.TrimPrefix(key, session.StateUserPrefix))
	if err != nil && !errors.Is(err, mnemo.NotFound) {
		return fmt.Errorf("trpc: deleting key %s of user %s/%s: %w", key, userKey.AppName, userKey.UserID, err)
	}
	return nil
}

// UpdateSessionState writes keys of the session's own state without an
// event; "app:" and "user:" keys are refused, as tRPC's own services do.
// mnemod never stores "temp:" keys, so those are dropped.
func (s *SessionService) UpdateSessionState(ctx context.Context, key session.Key, state session.StateMap) error {
	if err := key.CheckSessionKey(); err != nil {
		return err
	}
	for k := range state {
		if strings.HasPrefix(k, session.StateAppPrefix) || strings.HasPrefix(k, session.StateUserPrefix) {
			return fmt.Errorf("trpc: session state key %s is not allowed: use UpdateAppState or UpdateUserState", k)
		}
	}
	_, err := s.client.PatchSessionState(ctx, key.AppName, key.UserID, key.SessionID, deltaOf(state, ""), 0)
	if err != nil {
		return fmt.Errorf("trpc: updating the state of session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	return nil
}
