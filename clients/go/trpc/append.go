package trpc

import (
	"context"
	"fmt"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// AppendEvent stores e in mnemod, then updates sess in place as tRPC's own
// services do (its events, filtered by options, and its state). As in
// those services, only a complete event with content is stored (not a
// partial one, nor one without a response); the state delta of any event
// is applied, atomically with the event when there is one. An event without
// an id gets one.
func (s *SessionService) AppendEvent(ctx context.Context, sess *session.Session, e *event.Event,
	options ...session.Option) error {
	if sess == nil {
		return session.ErrNilSession
	}
	if e == nil {
		return fmt.Errorf("trpc: AppendEvent needs an event")
	}
	key := session.Key{AppName: sess.AppName, UserID: sess.UserID, SessionID: sess.ID}
	if err := key.CheckSessionKey(); err != nil {
		return err
	}
	if e.ID == "" {
		e.ID = mnemo.NewID()
	}
	if err := s.store(ctx, key, e); err != nil {
		return fmt.Errorf("trpc: appending event %s to session %s/%s/%s: %w",
			e.ID, key.AppName, key.UserID, key.SessionID, err)
	}
	sess.UpdateUserSession(e, options...)
	return nil
}

func (s *SessionService) store(ctx context.Context, key session.Key, e *event.Event) error {
	if e.Response == nil || e.IsPartial || !e.IsValidContent() {
		if len(e.StateDelta) == 0 {
			// Nothing to store, but the session must be there, as for any append.
			_, err := s.client.GetSession(ctx, key.AppName, key.UserID, key.SessionID,
				mnemo.GetSessionOptions{NumRecentEvents: 1})
			return err
		}
		_, err := s.client.PatchSessionState(ctx, key.AppName, key.UserID, key.SessionID, deltaOf(e.StateDelta, ""), 0)
		return err
	}
	stored, err := toMnemo(e)
	if err != nil {
		return err
	}
	_, err = s.client.AppendEvent(ctx, key.AppName, key.UserID, key.SessionID, stored, mnemo.AppendOptions{})
	return err
}
