# Pinned versions and image names of the Tuning Lab stack.
# shellcheck disable=SC2034  # used by the files that source this one
# Plain NAME=value lines: sourced by scripts/setup.sh, easy to parse from anywhere else.

WILDFLY_VERSION=39.0.1.Final
PGJDBC_VERSION=42.7.14
K6_VERSION=v1.8.1
VALE_VERSION=v3.22.0
# The Maven plugin used to fetch artifacts from Maven Central into the cache.
MAVEN_DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

BASE_IMAGE_DEFAULT=tuninglab/base:trixie
BASE_SUITE=trixie
BASE_MIRROR=http://deb.debian.org/debian

IMAGE_DB=tuninglab/db:17
IMAGE_WILDFLY=tuninglab/wildfly:39.0.1
IMAGE_K6=tuninglab/k6:1.8.1
