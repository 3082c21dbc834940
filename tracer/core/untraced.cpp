// The MPI routines a traced program imports that the tracer does not trace (untraced.hpp).
#include "untraced.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>

namespace tit::tracer {

namespace {

/// Routines that move data, synchronise, complete requests or make communicators, by their name after `MPI_`, in
/// lower case: the ones the tracer writes (a Fortran program reaches them only through an entry point of its own) and
/// the ones it does not.
constexpr std::string_view kCommunicating[] = {
    // traced (wrappers/): checked for their Fortran entry points
    "send", "ssend", "bsend", "rsend", "recv", "isend", "issend", "ibsend", "irsend", "irecv", "send_init",
    "ssend_init", "bsend_init", "rsend_init", "recv_init", "start", "startall", "request_free", "wait", "waitany",
    "waitsome", "waitall", "test", "testany", "testsome", "testall", "sendrecv", "sendrecv_replace", "barrier", "bcast",
    "reduce", "allreduce", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "alltoall",
    "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan", "exscan", "ibarrier", "ibcast",
    "ireduce", "iallreduce", "igather", "igatherv", "iscatter", "iscatterv", "iallgather", "iallgatherv", "ialltoall",
    "ialltoallv", "ialltoallw", "ireduce_scatter", "ireduce_scatter_block", "iscan", "iexscan", "comm_split",
    "comm_split_type", "comm_dup", "comm_dup_with_info", "comm_create", "comm_create_group", "cart_create", "cart_sub",
    "graph_create", "comm_free",
    // not traced
    "probe", "iprobe", "mprobe", "improbe", "mrecv", "imrecv", "request_get_status", "cancel", "comm_idup",
    "intercomm_create", "intercomm_merge", "comm_spawn", "comm_spawn_multiple", "comm_accept", "comm_connect",
    "comm_join", "dist_graph_create", "dist_graph_create_adjacent", "neighbor_allgather", "neighbor_allgatherv",
    "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", "ineighbor_allgather", "ineighbor_allgatherv",
    "ineighbor_alltoall", "ineighbor_alltoallv", "ineighbor_alltoallw", "win_create", "win_allocate",
    "win_allocate_shared", "win_create_dynamic", "win_free", "win_fence", "win_start", "win_complete", "win_post",
    "win_wait", "win_test", "win_lock", "win_unlock", "win_lock_all", "win_unlock_all", "win_flush", "win_flush_all",
    "win_flush_local", "win_flush_local_all", "win_sync", "put", "get", "accumulate", "get_accumulate",
    "fetch_and_op", "compare_and_swap", "rput", "rget", "raccumulate", "rget_accumulate", "file_open", "file_close",
    "file_set_view", "file_read", "file_read_all", "file_read_at", "file_read_at_all", "file_read_shared",
    "file_read_ordered", "file_write", "file_write_all", "file_write_at", "file_write_at_all", "file_write_shared",
    "file_write_ordered", "file_iread", "file_iwrite", "file_iread_at", "file_iwrite_at", "file_iread_all",
    "file_iwrite_all", "file_sync", "file_set_size", "file_preallocate"};

/// The undefined dynamic symbols of the ELF file `path` (its .dynsym), added to `out`; nothing when it cannot be read.
void undefined_symbols(const char* path, std::set<std::string>& out)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat st{};
  if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(ElfW(Ehdr)))) {
    close(fd);
    return;
  }
  auto size = static_cast<std::size_t>(st.st_size);
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return;
  const auto* base = static_cast<const unsigned char*>(map);
  const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(base);
  auto inside = [&](std::size_t off, std::size_t len) { return off <= size && len <= size - off; };
  const unsigned char elf_class = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == elf_class &&
      eh->e_shentsize == sizeof(ElfW(Shdr)) && inside(eh->e_shoff, std::size_t{eh->e_shnum} * sizeof(ElfW(Shdr)))) {
    const auto* sh = reinterpret_cast<const ElfW(Shdr)*>(base + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; ++i) {
      if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum || sh[i].sh_entsize != sizeof(ElfW(Sym)))
        continue;
      const ElfW(Shdr)& strs = sh[sh[i].sh_link];
      if (!inside(sh[i].sh_offset, sh[i].sh_size) || !inside(strs.sh_offset, strs.sh_size))
        continue;
      const auto* syms = reinterpret_cast<const ElfW(Sym)*>(base + sh[i].sh_offset);
      const char* names = reinterpret_cast<const char*>(base + strs.sh_offset);
      for (std::size_t k = 0; k < sh[i].sh_size / sizeof(ElfW(Sym)); ++k)
        if (syms[k].st_shndx == SHN_UNDEF && syms[k].st_name < strs.sh_size) {
          std::string_view n(names + syms[k].st_name, strnlen(names + syms[k].st_name, strs.sh_size - syms[k].st_name));
          if (n.starts_with("mpi_"))
            out.emplace(n);
        }
    }
  }
  munmap(map, size);
}

/// Whether the object at `path` is part of the MPI installation or this library (their imports are not the program's).
bool skipped(std::string_view path, std::string_view self)
{
  std::string_view file = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  return path == self || file.starts_with("libmpi") || file.starts_with("libopen-") || file.starts_with("libompi") ||
         file.starts_with("libmca") || file.starts_with("mca_") || file.starts_with("libpmix") ||
         file.starts_with("libmpich") || file.starts_with("libfabric");
}

int collect(dl_phdr_info* info, std::size_t, void* data)
{
  auto* objects = static_cast<std::vector<std::string>*>(data);
  objects->emplace_back(info->dlpi_name != nullptr ? info->dlpi_name : "");
  return 0;
}

} // namespace

std::vector<std::string> untraced_imports()
{
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&untraced_imports), &self) == 0 || self.dli_fname == nullptr)
    return {};
  std::vector<std::string> objects;
  dl_iterate_phdr(collect, &objects);
  std::set<std::string> imported;
  for (const std::string& o : objects) {
    std::string path = o.empty() ? "/proc/self/exe" : o; // the program itself has no name here
    if (!o.empty() && skipped(o, self.dli_fname))
      continue;
    undefined_symbols(path.c_str(), imported);
  }
  std::vector<std::string> untraced;
  for (std::string_view base : kCommunicating) {
    std::string name = "mpi_" + std::string(base) + "_";
    if (imported.count(name) == 0)
      continue;
    void* p = dlsym(RTLD_DEFAULT, name.c_str());
    Dl_info where{};
    bool ours = p != nullptr && dladdr(p, &where) != 0 && where.dli_fname != nullptr &&
                std::strcmp(where.dli_fname, self.dli_fname) == 0;
    if (!ours)
      untraced.push_back(name);
  }
  return untraced;
}

} // namespace tit::tracer
