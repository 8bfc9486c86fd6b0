# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# ssh between the bench guests, for launchers that need it (Open MPI's
# mpirun starts its orted on the other guests through ssh).  Needs wait.sh
# and pair.sh sourced first.
#
#   ssh_up         sshd on port 22 of the control network ($WREN_VIRTIO_IP)
#                  and root's client set up, so that `ssh guestN CMD` runs
#                  without a prompt; once per boot (a second call only
#                  checks that sshd still runs)
#   ssh_wait HOST  until `ssh HOST true` works (the peer's sshd is up)
#   ssh_down       stop this guest's sshd and its shared connections
#
# Each returns non-zero with SSH_ERR saying what went wrong.
#
# The sshd is Debian's, unpacked by `make sshd` into build/sshd
# (mk/apps.mk): installing openssh-server on the host would start an sshd
# there.  A guest whose root has openssh-server installed (a root
# filesystem of its own, vmrun.sh ROOTFS=) runs that one.  Every guest of the boot uses one host key and one client key,
# made by the first guest to get here in the results share's ssh/ (so
# that each guest's known_hosts and authorized_keys are written before
# any peer's sshd is up), and copied from there into this guest's /run:
# ssh refuses keys that others can read, which a 9p share cannot promise.
#
# What ssh runs on a peer gets sshd's fresh environment (PATH
# /usr/local/bin:/usr/bin:/bin, so Debian's /usr/bin/orted is found);
# sshd accepts LD_LIBRARY_PATH and the UCX_*, FI_*, OMPI_* and WREN_*
# variables that a client sends with `-o SendEnv=...`.

SSH_ERR=
SSH_DIR=/run/wren-ssh
if [ -z "${SSHD_ROOT+set}" ]; then
	SSHD_ROOT=$WREN_TOP/build/sshd
	[ ! -x /usr/sbin/sshd ] || SSHD_ROOT=
fi

ssh_fail() {
	SSH_ERR=$*
	return 1
}

# The keys of the boot: made once, in a directory renamed into place, so
# a guest that sees ssh/ sees all of it.  mkdir is the lock between the
# guests (atomic on the host's file system behind 9p).
ssh_keys() {
	local share keys tmp
	share=$(dirname "$WREN_RESULTS")
	keys=$share/ssh
	if [ ! -d "$keys" ] && mkdir "$share/ssh.lock" 2>/dev/null; then
		tmp=$share/ssh.tmp.$$
		if ! mkdir "$tmp" ||
			! ssh-keygen -q -t ed25519 -N '' -C "wren bench host" -f "$tmp/host_ed25519" ||
			! ssh-keygen -q -t ed25519 -N '' -C "wren bench root" -f "$tmp/id_ed25519" ||
			! mv "$tmp" "$keys"; then
			ssh_fail "ssh-keygen into $tmp failed"
			return 1
		fi
	fi
	wait_for 120 test -d "$keys" || ssh_fail "no keys in $keys after 120 s" || return 1
	if ! install -d -m 700 "$SSH_DIR" ||
		! install -m 600 "$keys/host_ed25519" "$keys/id_ed25519" "$SSH_DIR/" ||
		! install -m 644 "$keys/host_ed25519.pub" "$keys/id_ed25519.pub" "$SSH_DIR/" ||
		! install -m 600 "$keys/id_ed25519.pub" "$SSH_DIR/authorized_keys"; then
		ssh_fail "cannot copy the keys from $keys to $SSH_DIR"
		return 1
	fi
}

# sshd's privilege separation needs its user and an empty root-owned
# /run/sshd; the guests' /etc is a writable overlay of the host's, where
# openssh-server was never installed.  With UsePAM no, sshd also refuses
# a root whose password field says locked ('!'): guest root may log in
# with its key whatever the host's root has.
ssh_system() {
	local uid=100
	if ! getent passwd sshd >/dev/null; then
		while getent passwd "$uid" >/dev/null; do
			uid=$((uid + 1))
		done
		echo "sshd:x:$uid:65534::/run/sshd:/usr/sbin/nologin" >>/etc/passwd ||
			ssh_fail "cannot add the sshd user to /etc/passwd" || return 1
	fi
	if grep -q '^root:!' /etc/shadow 2>/dev/null; then
		sed -i 's/^root:!*/root:*/' /etc/shadow ||
			ssh_fail "cannot unlock root in /etc/shadow" || return 1
	fi
	install -d -m 755 /run/sshd || ssh_fail "cannot create /run/sshd" || return 1
	ssh_bashrc
}

# Debian's bash sources ~/.bashrc for a command run by sshd; the guests'
# /root is the host's, whose .bashrc may set up a whole environment
# (pyenv's init here: 7 s of each `ssh guest1 true` under TCG, and a PATH
# of its shims for orted).  The guest's copy of it returns at once for a
# non-interactive ssh session; logins and scripts see it as before.
ssh_bashrc() {
	local rc=$HOME/.bashrc guard='# ssh.sh: not for commands run through ssh'
	[ -f "$rc" ] || return 0
	grep -qxF "$guard" "$rc" && return 0
	if ! {
		echo "$guard"
		# shellcheck disable=SC2016 # for the sourcing bash to expand
		echo 'case $- in *i*) ;; *) [ -z "${SSH_CONNECTION:-}" ] || return 0 ;; esac'
		cat "$rc"
	} >"$rc.ssh" || ! mv "$rc.ssh" "$rc"; then
		ssh_fail "cannot guard $rc"
	fi
}

ssh_config() {
	local i names='' kt key
	for ((i = 0; i < ${WREN_NGUESTS:-2}; i++)); do
		names+=${names:+,}guest$i,10.0.1.$((i + 1))
	done
	# One host key for every guest: known_hosts is exact, so no
	# first-use acceptance is needed.
	read -r kt key _ <"$SSH_DIR/host_ed25519.pub"
	echo "$names $kt $key" >"$SSH_DIR/known_hosts"
	cat >"$SSH_DIR/sshd_config" <<-EOF
		# ssh.sh: the bench guests' sshd, root by key only.
		ListenAddress $WREN_VIRTIO_IP:22
		HostKey $SSH_DIR/host_ed25519
		AuthorizedKeysFile $SSH_DIR/authorized_keys
		PidFile $SSH_DIR/sshd.pid
		PermitRootLogin prohibit-password
		PubkeyAuthentication yes
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		UseDNS no
		PrintMotd no
		PrintLastLog no
		AcceptEnv LD_LIBRARY_PATH UCX_* FI_* OMPI_* WREN_*
		# mpirun opens one session per peer, a test may open more
		MaxStartups 64:30:128
		MaxSessions 64
	EOF
	install -d -m 700 "$HOME/.ssh" &&
		cat >"$HOME/.ssh/config" <<-EOF
			# ssh.sh: root between the bench guests, no prompts.
			Host guest* 10.0.1.*
			    User root
			    IdentityFile $SSH_DIR/id_ed25519
			    IdentitiesOnly yes
			    UserKnownHostsFile $SSH_DIR/known_hosts
			    GlobalKnownHostsFile /dev/null
			    StrictHostKeyChecking yes
			    BatchMode yes
			    ConnectTimeout 20
			    LogLevel ERROR
			    # No Kerberos (Debian's ssh_config asks for it): its
			    # realm lookups wait on a DNS server the guests cannot
			    # reach.
			    GSSAPIAuthentication no
			    # A connection costs about 3 s of key exchange and
			    # authentication under TCG: later ones (each mpirun's
			    # orted launch) share the first.  The master it leaves
			    # keeps the first client's stderr only with -v, so a
			    # trace is taken with -o ControlMaster=no.
			    ControlMaster auto
			    ControlPath $SSH_DIR/cm-%r@%h:%p
			    ControlPersist 15m
		EOF
}

ssh_running() {
	local pid
	read -r pid 2>/dev/null <"$SSH_DIR/sshd.pid" && [ -d "/proc/$pid" ]
}

ssh_up() {
	local sshd=$SSHD_ROOT/usr/sbin/sshd libs multiarch
	SSH_ERR=
	ssh_running && return 0
	[ -x "$sshd" ] || ssh_fail "no $sshd (make sshd)" || return 1
	ssh_keys || return 1
	ssh_system || return 1
	ssh_config || ssh_fail "cannot write the ssh configuration" || return 1
	# The libraries of the package (libwrap0) for sshd alone; the
	# sessions it starts get a fresh environment.
	multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
	libs=$SSHD_ROOT/lib/$multiarch:$SSHD_ROOT/usr/lib/$multiarch
	# -t first: a configuration sshd rejects says why here, not only in
	# its log.
	SSH_ERR=$(LD_LIBRARY_PATH=$libs "$sshd" -t -f "$SSH_DIR/sshd_config" 2>&1) ||
		ssh_fail "sshd -t: $SSH_ERR" || return 1
	LD_LIBRARY_PATH=$libs "$sshd" -f "$SSH_DIR/sshd_config" -E "$WREN_RESULTS/sshd.log" ||
		ssh_fail "sshd did not start: $(tail -n 3 "$WREN_RESULTS/sshd.log" 2>/dev/null)" ||
		return 1
	# sshd writes its pid file once it listens.
	wait_for 60 ssh_running ||
		ssh_fail "sshd not listening after 60 s: $(tail -n 3 "$WREN_RESULTS/sshd.log" 2>/dev/null)"
}

ssh_wait() {
	wait_for "${2:-120}" ssh -o ConnectTimeout=5 "$1" true 2>/dev/null ||
		ssh_fail "ssh $1 true: $(ssh "$1" true 2>&1)"
}

ssh_down() {
	local pid m
	# The shared connections to the peers first: their masters would
	# outlive the test.
	for m in "$SSH_DIR"/cm-*; do
		[ -S "$m" ] && ssh -o ControlPath="$m" -O exit peer 2>/dev/null
	done
	read -r pid 2>/dev/null <"$SSH_DIR/sshd.pid" || return 0
	kill "$pid" 2>/dev/null
	rm -f "$SSH_DIR/sshd.pid"
}
