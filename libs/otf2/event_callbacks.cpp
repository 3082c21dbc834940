// Each callback hands its record to the rank's RankEvents and interrupts the reading once it holds an error (no
// exception crosses OTF2's C frames).
#include "event_callbacks.hpp"

#include "rank_events.hpp"

namespace tit::otf2 {
namespace {

RankEvents& events(void* user) { return *static_cast<RankEvents*>(user); }

OTF2_CallbackCode status(void* user)
{
  return events(user).error().empty() ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef region)
{
  events(u).enter(t, region, pos);
  return status(u);
}
OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*,
                           OTF2_RegionRef region)
{
  events(u).leave(t, region, pos);
  return status(u);
}
OTF2_CallbackCode on_metric(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* u, OTF2_AttributeList*,
                            OTF2_MetricRef metric, uint8_t n, const OTF2_Type* types, const OTF2_MetricValue* values)
{
  events(u).metric(metric, n, types, values);
  return status(u);
}

OTF2_CallbackCode add(void* u, Record r)
{
  events(u).record(std::move(r));
  return status(u);
}

using T = Record::Type;

OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
                          OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  return add(u, Record{T::Send, pos, peer, comm, tag, bytes, 0, {}});
}
OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
                           OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
  return add(u, Record{T::Isend, pos, peer, comm, tag, bytes, request, {}});
}
OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
                          OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
  return add(u, Record{T::Recv, pos, peer, comm, tag, bytes, 0, {}});
}
OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
                           OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
  return add(u, Record{T::IrecvComplete, pos, peer, comm, tag, bytes, request, {}});
}
template <Record::Type Type>
OTF2_CallbackCode on_request(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*,
                             uint64_t request)
{
  return add(u, Record{Type, pos, 0, OTF2_UNDEFINED_COMM, 0, 0, request, {}});
}
OTF2_CallbackCode on_collective(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*,
                                OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                uint64_t received)
{
  CollectiveRecord c{op, 1, 0, root, sent, received};
  return add(u, Record{T::Collective, pos, 0, comm, 0, 0, 0, c});
}

OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*,
                                  OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                  uint64_t received, uint64_t request)
{
  CollectiveRecord c{op, 1, 0, root, sent, received};
  return add(u, Record{T::NbcComplete, pos, 0, comm, 0, 0, request, c});
}

/// A record that cannot be replayed, named `Name`, whatever its arguments.
template <const char* Name, class... Args>
OTF2_CallbackCode refuse(OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, Args...)
{
  events(u).unsupported(Name, pos);
  return status(u);
}

#define TIT_OTF2_REFUSED(X)                                                                                            \
  X(RmaWinCreate) X(RmaWinDestroy) X(RmaCollectiveBegin) X(RmaCollectiveEnd) X(RmaGroupSync) X(RmaRequestLock)        \
  X(RmaAcquireLock) X(RmaTryLock) X(RmaReleaseLock) X(RmaSync) X(RmaWaitChange) X(RmaPut) X(RmaGet) X(RmaAtomic)      \
  X(RmaOpCompleteBlocking) X(RmaOpCompleteNonBlocking) X(RmaOpTest) X(RmaOpCompleteRemote)                           \
  X(ThreadFork) X(ThreadJoin) X(ThreadTeamBegin) X(ThreadTeamEnd) X(ThreadAcquireLock) X(ThreadReleaseLock)           \
  X(ThreadTaskCreate) X(ThreadTaskSwitch) X(ThreadTaskComplete) X(ThreadCreate) X(ThreadBegin) X(ThreadWait)          \
  X(ThreadEnd) X(OmpFork) X(OmpJoin) X(OmpAcquireLock) X(OmpReleaseLock) X(OmpTaskCreate) X(OmpTaskSwitch)            \
  X(OmpTaskComplete) X(IoCreateHandle) X(IoDestroyHandle) X(IoDuplicateHandle) X(IoSeek) X(IoChangeStatusFlags)       \
  X(IoDeleteFile) X(IoOperationBegin) X(IoOperationTest) X(IoOperationIssued) X(IoOperationComplete)                  \
  X(IoOperationCancelled) X(IoAcquireLock) X(IoReleaseLock) X(IoTryLock)

#define TIT_OTF2_NAME(N) constexpr char k##N[] = #N;
TIT_OTF2_REFUSED(TIT_OTF2_NAME)
#undef TIT_OTF2_NAME

void set_refusals(OTF2_EvtReaderCallbacks* cb)
{
#define TIT_OTF2_SET(N) OTF2_EvtReaderCallbacks_Set##N##Callback(cb, refuse<k##N>);
  TIT_OTF2_REFUSED(TIT_OTF2_SET)
#undef TIT_OTF2_SET
}

} // namespace

OTF2_EvtReaderCallbacks* make_event_callbacks()
{
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_request<T::IrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_request<T::IsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request<T::Test>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request<T::Cancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_request<T::NbcRequest>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
  set_refusals(cb);
  return cb;
}

} // namespace tit::otf2
