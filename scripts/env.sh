# Sourced by scripts/serve and scripts/test: tool paths and offline Trunk.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
